//! The opcode walker of [`super::check`]: reads the stream once, keeping only a small graph
//! of node ids (no values), and enforces the per-opcode rules and counts.

use super::{leaf_weight, Limits, PickleError, Summary};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    List,
    Dict,
    Tuple,
    Set,
    /// An instance made by NEWOBJ/INST (a state dict replaces it on BUILD).
    Object,
    Str,
    Class,
    Scalar,
}

pub(super) struct Node {
    pub(super) kind: Kind,
    pub(super) weight: u64,
    pub(super) children: Vec<u32>,
    pub(super) memoized: bool,
    /// Short string contents, for STACK_GLOBAL.
    pub(super) text: Option<Box<str>>,
}

#[derive(Clone, Copy)]
pub(super) enum Item {
    Leaf(u64),
    Node(u32),
}

/// The walker's state: the input and position, the stack of items, open marks, the memo
/// (id to node) and the node graph.
pub(super) struct Vm<'a> {
    pub(super) data: &'a [u8],
    pub(super) pos: usize,
    pub(super) op_at: usize,
    pub(super) limits: Limits,
    pub(super) allowed: &'a [(&'a str, &'a str)],
    pub(super) nodes: Vec<Node>,
    pub(super) stack: Vec<Item>,
    pub(super) marks: Vec<usize>,
    pub(super) memo: HashMap<u32, u32>,
    pub(super) objects: usize,
    pub(super) summary: Summary,
}

/// The walker's helpers: reading operands, the stack and marks, the memo, the node graph.
impl<'a> Vm<'a> {
    pub(super) fn malformed<T>(&self, reason: impl Into<String>) -> Result<T, PickleError> {
        Err(PickleError::Malformed {
            offset: self.op_at,
            reason: reason.into(),
        })
    }

    pub(super) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], PickleError> {
        if self.data.len() - self.pos < n {
            return Err(PickleError::Truncated {
                offset: self.data.len(),
                what,
            });
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    pub(super) fn uint(&mut self, n: usize, what: &'static str) -> Result<u64, PickleError> {
        let b = self.take(n, what)?;
        Ok(b.iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
    }

    /// Read a length-prefixed payload, checking the length before touching it.
    pub(super) fn sized(
        &mut self,
        len_bytes: usize,
        what: &'static str,
    ) -> Result<&'a [u8], PickleError> {
        let declared = self.uint(len_bytes, what)?;
        let declared = if len_bytes == 4 && what == "BINSTRING" && declared >= 1 << 31 {
            return self.malformed("negative BINSTRING length");
        } else {
            declared
        };
        let remaining = self.data.len() - self.pos;
        if declared > remaining as u64 {
            return Err(PickleError::Length {
                offset: self.op_at,
                declared,
                remaining,
            });
        }
        self.take(declared as usize, what)
    }

    pub(super) fn line(&mut self, what: &'static str, max: usize) -> Result<&'a [u8], PickleError> {
        let rest = &self.data[self.pos..];
        match rest.iter().position(|&b| b == b'\n') {
            Some(n) if n > max => {
                self.malformed(format!("{what} argument longer than {max} bytes"))
            }
            Some(n) => {
                self.pos += n + 1;
                Ok(&rest[..n])
            }
            None => Err(PickleError::Truncated {
                offset: self.data.len(),
                what,
            }),
        }
    }

    pub(super) fn count(&mut self, n: usize) -> Result<(), PickleError> {
        self.objects += n;
        if self.objects > self.limits.max_objects {
            return Err(PickleError::Limit(format!(
                "more than {} objects, memo entries and references",
                self.limits.max_objects
            )));
        }
        Ok(())
    }

    pub(super) fn new_node(
        &mut self,
        kind: Kind,
        weight: u64,
        text: Option<Box<str>>,
    ) -> Result<u32, PickleError> {
        self.count(1)?;
        self.nodes.push(Node {
            kind,
            weight,
            children: Vec::new(),
            memoized: false,
            text,
        });
        Ok((self.nodes.len() - 1) as u32)
    }

    pub(super) fn push(&mut self, item: Item) -> Result<(), PickleError> {
        if self.stack.len() >= self.limits.max_stack {
            return Err(PickleError::Limit(format!(
                "more than {} stack items",
                self.limits.max_stack
            )));
        }
        self.stack.push(item);
        Ok(())
    }

    pub(super) fn push_node(
        &mut self,
        kind: Kind,
        weight: u64,
        text: Option<Box<str>>,
    ) -> Result<u32, PickleError> {
        let id = self.new_node(kind, weight, text)?;
        self.push(Item::Node(id))?;
        Ok(id)
    }

    pub(super) fn frame_floor(&self) -> usize {
        self.marks.last().copied().unwrap_or(0)
    }

    pub(super) fn pop(&mut self) -> Result<Item, PickleError> {
        if self.stack.len() <= self.frame_floor() {
            return self.malformed("stack underflow");
        }
        Ok(self.stack.pop().expect("checked non-empty"))
    }

    pub(super) fn pop_mark(&mut self) -> Result<Vec<Item>, PickleError> {
        match self.marks.pop() {
            Some(m) => Ok(self.stack.split_off(m)),
            None => self.malformed("no MARK to pop to"),
        }
    }

    /// The node on top of the stack, without popping it.
    pub(super) fn top_node(&self) -> Result<u32, PickleError> {
        if self.stack.len() <= self.frame_floor() {
            return self.malformed("stack underflow");
        }
        match self.stack[self.stack.len() - 1] {
            Item::Node(id) => Ok(id),
            Item::Leaf(_) => self.malformed("expected a container on the stack, found a scalar"),
        }
    }

    pub(super) fn add_children(&mut self, parent: u32, items: &[Item]) -> Result<(), PickleError> {
        self.count(items.len())?;
        for it in items {
            match *it {
                Item::Leaf(w) => {
                    let n = &mut self.nodes[parent as usize];
                    n.weight = n.weight.saturating_add(w);
                }
                Item::Node(c) => self.nodes[parent as usize].children.push(c),
            }
        }
        Ok(())
    }

    pub(super) fn modify(&mut self, want: Kind, items: &[Item]) -> Result<(), PickleError> {
        let target = self.top_node()?;
        let kind = self.nodes[target as usize].kind;
        // A dict operation on an instance goes to its state (the builder does the same).
        let ok = kind == want || (want == Kind::Dict && kind == Kind::Object);
        if !ok {
            return self.malformed(format!("{want:?} operation on a {kind:?}"));
        }
        self.add_children(target, items)
    }

    pub(super) fn allow_class(&mut self, module: &str, name: &str) -> Result<u32, PickleError> {
        if !self.allowed.iter().any(|&(m, n)| m == module && n == name) {
            return Err(PickleError::UnknownClass {
                offset: self.op_at,
                module: module.chars().take(80).collect(),
                name: name.chars().take(80).collect(),
            });
        }
        let key = (module.to_string(), name.to_string());
        if !self.summary.classes.contains(&key) {
            self.summary.classes.push(key);
        }
        self.new_node(Kind::Class, 1, None)
    }

    pub(super) fn pop_text(&mut self) -> Result<Box<str>, PickleError> {
        match self.pop()? {
            Item::Node(id) if self.nodes[id as usize].kind == Kind::Str => {
                match self.nodes[id as usize].text.clone() {
                    Some(t) => Ok(t),
                    None => self.malformed("STACK_GLOBAL name is too long or not text"),
                }
            }
            _ => self.malformed("STACK_GLOBAL needs two strings on the stack"),
        }
    }

    pub(super) fn push_str(&mut self, bytes: &[u8], is_text: bool) -> Result<(), PickleError> {
        let text = if is_text && bytes.len() <= 200 {
            match std::str::from_utf8(bytes) {
                Ok(s) => Some(Box::from(s)),
                Err(_) => return self.malformed("string is not valid UTF-8"),
            }
        } else {
            if is_text && std::str::from_utf8(bytes).is_err() {
                return self.malformed("string is not valid UTF-8");
            }
            None
        };
        self.push_node(Kind::Str, leaf_weight(bytes.len()), text)?;
        Ok(())
    }

    pub(super) fn memo_put(&mut self, id: u64) -> Result<(), PickleError> {
        let id = match u32::try_from(id) {
            Ok(v) => v,
            Err(_) => return self.malformed("memo id out of range"),
        };
        if self.stack.len() <= self.frame_floor() {
            return self.malformed("memoize with an empty stack");
        }
        let idx = self.stack.len() - 1;
        let node = match self.stack[idx] {
            Item::Node(n) => n,
            Item::Leaf(w) => {
                let n = self.new_node(Kind::Scalar, w, None)?;
                self.stack[idx] = Item::Node(n);
                n
            }
        };
        if self.nodes[node as usize].memoized {
            return self.malformed("the same object is memoized twice");
        }
        self.nodes[node as usize].memoized = true;
        self.count(1)?;
        self.memo.insert(id, node);
        Ok(())
    }

    pub(super) fn memo_get(&mut self, id: u64) -> Result<(), PickleError> {
        let node = match u32::try_from(id).ok().and_then(|i| self.memo.get(&i)) {
            Some(&n) => n,
            None => return self.malformed(format!("memo entry {id} is not defined")),
        };
        self.count(1)?;
        self.push(Item::Node(node))
    }

    pub(super) fn ascii_num(&self, bytes: &[u8]) -> Result<u64, PickleError> {
        match std::str::from_utf8(bytes)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
        {
            Some(v) => Ok(v),
            None => self.malformed("expected a decimal number"),
        }
    }
}
