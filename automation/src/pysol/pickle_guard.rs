//! A resource guard for untrusted pickles, run before serde_pickle decodes them.
//!
//! serde_pickle never executes code, but on hostile input it can still use unbounded memory
//! or stack: every `MARK` allocates a 128-slot vector, `DUP` and memo references deep-clone
//! values, shared objects are expanded into copies ("billion laughs"), and its value
//! conversion and `Drop` recurse once per nesting level. [`check`] walks the opcode stream
//! once without building any value (only a small object graph of ids) and rejects, with an
//! offset, anything outside what PySolFC's `Pickler(fh, protocol).dump(stats)` produces:
//!
//! * opcodes of protocols 0 to 5 that build plain data (numbers, strings, tuples, lists,
//!   dicts, sets) plus `GLOBAL`/`STACK_GLOBAL`/`INST`/`NEWOBJ`/`BUILD` for the classes the
//!   caller allows; `REDUCE`, `OBJ`, `NEWOBJ_EX`, `PERSID`, `EXT*`, out-of-band buffers and
//!   `DUP` are refused (Python's pickler emits `DUP` never, and PySolFC's classes need no
//!   function call);
//! * a declared length larger than the bytes that follow (checked before any allocation);
//! * more open marks, stack items, objects or memo entries than [`Limits`] allows;
//! * after `STOP`: trailing bytes, a cyclic object graph, a nesting depth or a fully
//!   expanded size (every shared reference counted as a copy, as serde_pickle makes them)
//!   over the limits.
//!
//! Opcode values follow CPython's `Lib/pickle.py` and `Lib/pickletools.py`.

use std::collections::HashMap;

/// Resource limits for [`check`]. The defaults allow statistics files far larger than any
/// real one (a player with 10 000 finished games writes about 1 MiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted input, in bytes.
    pub max_bytes: usize,
    /// Most simultaneously open `MARK`s.
    pub max_open_marks: usize,
    /// Most items on the pickle machine's stack at once (all mark frames together).
    pub max_stack: usize,
    /// Most objects (containers, strings, classes) plus memo entries plus references
    /// between objects that the stream may create in total.
    pub max_objects: usize,
    /// Deepest nesting of containers in the decoded value (the root container is depth 1).
    pub max_depth: usize,
    /// Largest size of the fully expanded value, in units of one scalar or 16 string bytes.
    pub max_expanded: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 16 << 20,
            max_open_marks: 256,
            max_stack: 100_000,
            max_objects: 2_000_000,
            max_depth: 64,
            max_expanded: 8_000_000,
        }
    }
}

/// Why a pickle was refused. Offsets are byte positions of the offending opcode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PickleError {
    /// The input has no bytes at all.
    #[error("empty file (0 bytes): not a pickle")]
    Empty,
    /// The input is larger than [`Limits::max_bytes`].
    #[error("file too large: {size} bytes (limit {max})")]
    TooLarge {
        /// Input size in bytes.
        size: usize,
        /// The limit in bytes.
        max: usize,
    },
    /// The stream ends inside an opcode or before `STOP`.
    #[error("truncated pickle: input ends at byte {offset} inside or before {what}")]
    Truncated {
        /// Where the input ended.
        offset: usize,
        /// The opcode (or "STOP") being read.
        what: &'static str,
    },
    /// `PROTO` names a protocol this decoder does not know (above 5).
    #[error("unsupported pickle protocol {0} (supported: 0 to 5)")]
    Protocol(u8),
    /// A byte that is not a pickle opcode, or one this guard refuses.
    #[error("byte {offset}: {what} (0x{opcode:02x})")]
    Opcode {
        /// Position of the opcode.
        offset: usize,
        /// Its byte value.
        opcode: u8,
        /// Why it is refused.
        what: &'static str,
    },
    /// A class reference outside the allow-list.
    #[error("byte {offset}: class {module}.{name} is not a PySolFC statistics class")]
    UnknownClass {
        /// Position of the `GLOBAL`/`STACK_GLOBAL`/`INST` opcode.
        offset: usize,
        /// Module part of the reference.
        module: String,
        /// Attribute part of the reference.
        name: String,
    },
    /// A length prefix larger than the rest of the input.
    #[error(
        "byte {offset}: declared length {declared} exceeds the {} left",
        crate::plural(.remaining, "byte")
    )]
    Length {
        /// Position of the opcode.
        offset: usize,
        /// The declared length.
        declared: u64,
        /// Bytes left after the length field.
        remaining: usize,
    },
    /// The stream is well-formed bytewise but does not make sense as a pickle program.
    #[error("byte {offset}: malformed pickle: {reason}")]
    Malformed {
        /// Position of the opcode.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A resource limit from [`Limits`] was hit.
    #[error("pickle exceeds a safety limit: {0}")]
    Limit(String),
}

/// What [`check`] learnt about an accepted pickle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// The `PROTO` value, if the stream has one (protocols 0 and 1 have none).
    pub protocol: Option<u8>,
    /// Every distinct `(module, class)` referenced, in first-use order.
    pub classes: Vec<(String, String)>,
    /// Nesting depth of the decoded value.
    pub depth: usize,
    /// Fully expanded size (see [`Limits::max_expanded`]).
    pub expanded: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
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

struct Node {
    kind: Kind,
    weight: u64,
    children: Vec<u32>,
    memoized: bool,
    /// Short string contents, for STACK_GLOBAL.
    text: Option<Box<str>>,
}

#[derive(Clone, Copy)]
enum Item {
    Leaf(u64),
    Node(u32),
}

struct Vm<'a> {
    data: &'a [u8],
    pos: usize,
    op_at: usize,
    limits: Limits,
    allowed: &'a [(&'a str, &'a str)],
    nodes: Vec<Node>,
    stack: Vec<Item>,
    marks: Vec<usize>,
    memo: HashMap<u32, u32>,
    objects: usize,
    summary: Summary,
}

/// Check `data` against `limits`, allowing only the `(module, class)` pairs in `allowed`.
///
/// Errors: see [`PickleError`]; never panics, and uses memory proportional to the input
/// (bounded by the limits).
pub fn check(
    data: &[u8],
    limits: &Limits,
    allowed: &[(&str, &str)],
) -> Result<Summary, PickleError> {
    if data.is_empty() {
        return Err(PickleError::Empty);
    }
    if data.len() > limits.max_bytes {
        return Err(PickleError::TooLarge {
            size: data.len(),
            max: limits.max_bytes,
        });
    }
    let mut vm = Vm {
        data,
        pos: 0,
        op_at: 0,
        limits: *limits,
        allowed,
        nodes: Vec::new(),
        stack: Vec::new(),
        marks: Vec::new(),
        memo: HashMap::new(),
        objects: 0,
        summary: Summary::default(),
    };
    let root = vm.run()?;
    if vm.pos != data.len() {
        return Err(PickleError::Malformed {
            offset: vm.pos,
            reason: format!(
                "{} after STOP",
                crate::plural(data.len() - vm.pos, "trailing byte")
            ),
        });
    }
    let (depth, expanded) = vm.measure(root)?;
    vm.summary.depth = depth;
    vm.summary.expanded = expanded;
    Ok(vm.summary)
}

fn leaf_weight(bytes: usize) -> u64 {
    1 + bytes as u64 / 16
}

impl<'a> Vm<'a> {
    fn malformed<T>(&self, reason: impl Into<String>) -> Result<T, PickleError> {
        Err(PickleError::Malformed {
            offset: self.op_at,
            reason: reason.into(),
        })
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], PickleError> {
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

    fn uint(&mut self, n: usize, what: &'static str) -> Result<u64, PickleError> {
        let b = self.take(n, what)?;
        Ok(b.iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
    }

    /// Read a length-prefixed payload, checking the length before touching it.
    fn sized(&mut self, len_bytes: usize, what: &'static str) -> Result<&'a [u8], PickleError> {
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

    fn line(&mut self, what: &'static str, max: usize) -> Result<&'a [u8], PickleError> {
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

    fn count(&mut self, n: usize) -> Result<(), PickleError> {
        self.objects += n;
        if self.objects > self.limits.max_objects {
            return Err(PickleError::Limit(format!(
                "more than {} objects, memo entries and references",
                self.limits.max_objects
            )));
        }
        Ok(())
    }

    fn new_node(
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

    fn push(&mut self, item: Item) -> Result<(), PickleError> {
        if self.stack.len() >= self.limits.max_stack {
            return Err(PickleError::Limit(format!(
                "more than {} stack items",
                self.limits.max_stack
            )));
        }
        self.stack.push(item);
        Ok(())
    }

    fn push_node(
        &mut self,
        kind: Kind,
        weight: u64,
        text: Option<Box<str>>,
    ) -> Result<u32, PickleError> {
        let id = self.new_node(kind, weight, text)?;
        self.push(Item::Node(id))?;
        Ok(id)
    }

    fn frame_floor(&self) -> usize {
        self.marks.last().copied().unwrap_or(0)
    }

    fn pop(&mut self) -> Result<Item, PickleError> {
        if self.stack.len() <= self.frame_floor() {
            return self.malformed("stack underflow");
        }
        Ok(self.stack.pop().expect("checked non-empty"))
    }

    fn pop_mark(&mut self) -> Result<Vec<Item>, PickleError> {
        match self.marks.pop() {
            Some(m) => Ok(self.stack.split_off(m)),
            None => self.malformed("no MARK to pop to"),
        }
    }

    /// The node on top of the stack, without popping it.
    fn top_node(&self) -> Result<u32, PickleError> {
        if self.stack.len() <= self.frame_floor() {
            return self.malformed("stack underflow");
        }
        match self.stack[self.stack.len() - 1] {
            Item::Node(id) => Ok(id),
            Item::Leaf(_) => self.malformed("expected a container on the stack, found a scalar"),
        }
    }

    fn add_children(&mut self, parent: u32, items: &[Item]) -> Result<(), PickleError> {
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

    fn modify(&mut self, want: Kind, items: &[Item]) -> Result<(), PickleError> {
        let target = self.top_node()?;
        let kind = self.nodes[target as usize].kind;
        // serde_pickle lets BUILD's state dict stand in for the object.
        let ok = kind == want || (want == Kind::Dict && kind == Kind::Object);
        if !ok {
            return self.malformed(format!("{want:?} operation on a {kind:?}"));
        }
        self.add_children(target, items)
    }

    fn allow_class(&mut self, module: &str, name: &str) -> Result<u32, PickleError> {
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

    fn pop_text(&mut self) -> Result<Box<str>, PickleError> {
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

    fn push_str(&mut self, bytes: &[u8], is_text: bool) -> Result<(), PickleError> {
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

    fn memo_put(&mut self, id: u64) -> Result<(), PickleError> {
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

    fn memo_get(&mut self, id: u64) -> Result<(), PickleError> {
        let node = match u32::try_from(id).ok().and_then(|i| self.memo.get(&i)) {
            Some(&n) => n,
            None => return self.malformed(format!("memo entry {id} is not defined")),
        };
        self.count(1)?;
        self.push(Item::Node(node))
    }

    fn ascii_num(&self, bytes: &[u8]) -> Result<u64, PickleError> {
        match std::str::from_utf8(bytes)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
        {
            Some(v) => Ok(v),
            None => self.malformed("expected a decimal number"),
        }
    }

    fn run(&mut self) -> Result<Item, PickleError> {
        loop {
            self.op_at = self.pos;
            let op = match self.data.get(self.pos) {
                Some(&b) => b,
                None => {
                    return Err(PickleError::Truncated {
                        offset: self.pos,
                        what: "STOP",
                    })
                }
            };
            self.pos += 1;
            match op {
                0x80 => {
                    // PROTO
                    let v = self.uint(1, "PROTO")? as u8;
                    if v > 5 {
                        return Err(PickleError::Protocol(v));
                    }
                    self.summary.protocol.get_or_insert(v);
                }
                0x95 => {
                    // FRAME
                    let n = self.uint(8, "FRAME")?;
                    let remaining = self.data.len() - self.pos;
                    if n > remaining as u64 {
                        // A frame longer than the file: the file was cut short.
                        return Err(PickleError::Truncated {
                            offset: self.data.len(),
                            what: "FRAME",
                        });
                    }
                }
                b'.' => {
                    // STOP
                    if !self.marks.is_empty() {
                        return self.malformed("STOP with an open MARK");
                    }
                    if self.stack.len() != 1 {
                        return self.malformed(format!(
                            "STOP with {} stack items (want 1)",
                            self.stack.len()
                        ));
                    }
                    return Ok(self.stack[0]);
                }
                b'(' => {
                    if self.marks.len() >= self.limits.max_open_marks {
                        return Err(PickleError::Limit(format!(
                            "more than {} open MARKs",
                            self.limits.max_open_marks
                        )));
                    }
                    self.count(1)?;
                    self.marks.push(self.stack.len());
                }
                b'0' => {
                    // POP (serde_pickle pops a whole mark frame when the frame is empty)
                    if self.stack.len() == self.frame_floor() && !self.marks.is_empty() {
                        self.pop_mark()?;
                    } else {
                        self.pop()?;
                    }
                }
                b'1' => {
                    self.pop_mark()?;
                }
                b'p' => {
                    let l = self.line("PUT", 20)?;
                    let id = self.ascii_num(l)?;
                    self.memo_put(id)?;
                }
                b'q' => {
                    let id = self.uint(1, "BINPUT")?;
                    self.memo_put(id)?;
                }
                b'r' => {
                    let id = self.uint(4, "LONG_BINPUT")?;
                    self.memo_put(id)?;
                }
                0x94 => {
                    let id = self.memo.len() as u64;
                    self.memo_put(id)?;
                }
                b'g' => {
                    let l = self.line("GET", 20)?;
                    let id = self.ascii_num(l)?;
                    self.memo_get(id)?;
                }
                b'h' => {
                    let id = self.uint(1, "BINGET")?;
                    self.memo_get(id)?;
                }
                b'j' => {
                    let id = self.uint(4, "LONG_BINGET")?;
                    self.memo_get(id)?;
                }
                b'N' | 0x88 | 0x89 => self.push(Item::Leaf(1))?,
                b'I' | b'L' | b'F' => {
                    let l = self.line("INT/LONG/FLOAT", 64)?;
                    let w = leaf_weight(l.len());
                    self.push(Item::Leaf(w))?;
                }
                b'J' => {
                    self.take(4, "BININT")?;
                    self.push(Item::Leaf(1))?;
                }
                b'K' => {
                    self.take(1, "BININT1")?;
                    self.push(Item::Leaf(1))?;
                }
                b'M' => {
                    self.take(2, "BININT2")?;
                    self.push(Item::Leaf(1))?;
                }
                b'G' => {
                    self.take(8, "BINFLOAT")?;
                    self.push(Item::Leaf(1))?;
                }
                0x8a | 0x8b => {
                    let b = self.sized(if op == 0x8a { 1 } else { 4 }, "LONG1/LONG4")?;
                    if b.len() > 64 {
                        return self.malformed("binary long integer longer than 64 bytes");
                    }
                    self.push(Item::Leaf(1))?;
                }
                b'S' => {
                    let l = self.line("STRING", 1 << 20)?;
                    self.push_str(l, false)?;
                }
                b'V' => {
                    let l = self.line("UNICODE", 1 << 20)?;
                    self.push_str(l, false)?;
                }
                b'U' => {
                    let s = self.sized(1, "SHORT_BINSTRING")?;
                    self.push_str(s, false)?;
                }
                b'T' => {
                    let s = self.sized(4, "BINSTRING")?;
                    self.push_str(s, false)?;
                }
                0x8c => {
                    let s = self.sized(1, "SHORT_BINUNICODE")?;
                    self.push_str(s, true)?;
                }
                b'X' => {
                    let s = self.sized(4, "BINUNICODE")?;
                    self.push_str(s, true)?;
                }
                0x8d => {
                    let s = self.sized(8, "BINUNICODE8")?;
                    self.push_str(s, true)?;
                }
                b'C' => {
                    let s = self.sized(1, "SHORT_BINBYTES")?;
                    self.push_str(s, false)?;
                }
                b'B' => {
                    let s = self.sized(4, "BINBYTES")?;
                    self.push_str(s, false)?;
                }
                0x8e | 0x96 => {
                    let s = self.sized(8, "BINBYTES8/BYTEARRAY8")?;
                    self.push_str(s, false)?;
                }
                b')' => {
                    self.push_node(Kind::Tuple, 1, None)?;
                }
                0x85..=0x87 => {
                    let n = usize::from(op - 0x84);
                    let mut items = Vec::with_capacity(n);
                    for _ in 0..n {
                        items.push(self.pop()?);
                    }
                    items.reverse();
                    let id = self.push_node(Kind::Tuple, 1, None)?;
                    self.add_children(id, &items)?;
                }
                b't' | b'l' | b'd' | 0x91 => {
                    let items = self.pop_mark()?;
                    let kind = match op {
                        b't' => Kind::Tuple,
                        b'l' => Kind::List,
                        b'd' => Kind::Dict,
                        _ => Kind::Set,
                    };
                    if kind == Kind::Dict && items.len() % 2 != 0 {
                        return self.malformed("DICT with an odd number of items");
                    }
                    let id = self.push_node(kind, 1, None)?;
                    self.add_children(id, &items)?;
                }
                b']' => {
                    self.push_node(Kind::List, 1, None)?;
                }
                b'}' => {
                    self.push_node(Kind::Dict, 1, None)?;
                }
                0x8f => {
                    self.push_node(Kind::Set, 1, None)?;
                }
                b'a' => {
                    let v = self.pop()?;
                    self.modify(Kind::List, &[v])?;
                }
                b'e' => {
                    let items = self.pop_mark()?;
                    self.modify(Kind::List, &items)?;
                }
                b's' => {
                    let v = self.pop()?;
                    let k = self.pop()?;
                    self.modify(Kind::Dict, &[k, v])?;
                }
                b'u' => {
                    let items = self.pop_mark()?;
                    if items.len() % 2 != 0 {
                        return self.malformed("SETITEMS with an odd number of items");
                    }
                    self.modify(Kind::Dict, &items)?;
                }
                0x90 => {
                    let items = self.pop_mark()?;
                    self.modify(Kind::Set, &items)?;
                }
                b'c' => {
                    let m = self.line("GLOBAL", 200)?;
                    let n = self.line("GLOBAL", 200)?;
                    let (m, n) = (String::from_utf8_lossy(m), String::from_utf8_lossy(n));
                    let id = self.allow_class(&m, &n)?;
                    self.push(Item::Node(id))?;
                }
                0x93 => {
                    let n = self.pop_text()?;
                    let m = self.pop_text()?;
                    let id = self.allow_class(&m, &n)?;
                    self.push(Item::Node(id))?;
                }
                b'i' => {
                    let m = self.line("INST", 200)?;
                    let n = self.line("INST", 200)?;
                    let (m, n) = (String::from_utf8_lossy(m), String::from_utf8_lossy(n));
                    self.allow_class(&m, &n)?;
                    self.pop_mark()?;
                    self.push_node(Kind::Object, 1, None)?;
                }
                0x81 => {
                    // NEWOBJ: cls args -> obj
                    self.pop()?;
                    match self.pop()? {
                        Item::Node(c) if self.nodes[c as usize].kind == Kind::Class => {}
                        _ => return self.malformed("NEWOBJ without a class"),
                    }
                    self.push_node(Kind::Object, 1, None)?;
                }
                b'b' => {
                    // BUILD: obj state -> obj (serde_pickle keeps the state)
                    let state = self.pop()?;
                    let obj = self.top_node()?;
                    if self.nodes[obj as usize].kind != Kind::Object {
                        return self.malformed("BUILD on something that is not an instance");
                    }
                    self.add_children(obj, &[state])?;
                }
                b'R' => {
                    return Err(PickleError::Opcode {
                        offset: self.op_at,
                        opcode: op,
                        what: "REDUCE (a function call) is not allowed",
                    })
                }
                b'o' => {
                    return Err(PickleError::Opcode {
                        offset: self.op_at,
                        opcode: op,
                        what: "OBJ (Python 2 instance) is not supported",
                    })
                }
                b'2' => {
                    return Err(PickleError::Opcode {
                        offset: self.op_at,
                        opcode: op,
                        what: "DUP is not allowed (Python never writes it)",
                    })
                }
                0x92 | b'P' | b'Q' | 0x82 | 0x83 | 0x84 | 0x97 | 0x98 => {
                    return Err(PickleError::Opcode {
                        offset: self.op_at,
                        opcode: op,
                        what: "opcode not allowed in a statistics file",
                    })
                }
                _ => {
                    return Err(PickleError::Opcode {
                        offset: self.op_at,
                        opcode: op,
                        what: "not a pickle opcode",
                    })
                }
            }
        }
    }

    /// Depth and expanded size of `root`, iteratively (no recursion), rejecting cycles.
    fn measure(&self, root: Item) -> Result<(usize, u64), PickleError> {
        let root = match root {
            Item::Leaf(w) => return Ok((0, w)),
            Item::Node(n) => n,
        };
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; self.nodes.len()];
        let mut depth = vec![0usize; self.nodes.len()];
        let mut size = vec![0u64; self.nodes.len()];
        let mut work: Vec<(u32, usize)> = vec![(root, 0)];
        state[root as usize] = OPEN;
        while let Some(&mut (n, ref mut next)) = work.last_mut() {
            let node = &self.nodes[n as usize];
            if let Some(&c) = node.children.get(*next) {
                *next += 1;
                match state[c as usize] {
                    OPEN => {
                        return Err(PickleError::Limit(
                            "recursive structure: an object contains itself".into(),
                        ))
                    }
                    NEW => {
                        state[c as usize] = OPEN;
                        work.push((c, 0));
                    }
                    _ => {}
                }
                continue;
            }
            let is_container = !matches!(node.kind, Kind::Str | Kind::Scalar | Kind::Class);
            let mut d = 0;
            let mut s = node.weight;
            for &c in &node.children {
                d = d.max(depth[c as usize]);
                s = s.saturating_add(size[c as usize]);
            }
            depth[n as usize] = d + usize::from(is_container);
            size[n as usize] = s;
            state[n as usize] = DONE;
            if depth[n as usize] > self.limits.max_depth {
                return Err(PickleError::Limit(format!(
                    "nesting deeper than {} levels",
                    self.limits.max_depth
                )));
            }
            if s > self.limits.max_expanded {
                return Err(PickleError::Limit(format!(
                    "expanded size over {} units (shared objects are copied when decoded)",
                    self.limits.max_expanded
                )));
            }
            work.pop();
        }
        Ok((depth[root as usize], size[root as usize]))
    }
}
