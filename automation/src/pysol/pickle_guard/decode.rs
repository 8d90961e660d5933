//! The value builder: runs over a pickle the walker ([`super::vm`]) has already accepted and
//! builds its value in an arena of nodes (so that objects and containers filled after they
//! were memoized are shared the way Python shares them), then copies the root out as a
//! [`Value`] tree. The walker's limits bound everything here: the arena by the input size,
//! the copy by the expanded size and the nesting depth. Nothing is called or imported.
//!
//! [`Decoder::step`] is the dispatch, one arm per opcode; the steps it calls are grouped by
//! family: stack, marks and memo; numbers and strings; containers, classes and instances.

use std::collections::HashMap;

use super::value::{Object, Value};
use super::PickleError;

enum Node {
    Leaf(Value),
    Tuple(Vec<u32>),
    List(Vec<u32>),
    Dict(Vec<u32>),
    Set(Vec<u32>),
    Class(String, String),
    Object {
        module: String,
        name: String,
        args: Vec<u32>,
        state: Vec<u32>,
    },
}

/// The builder's state; the memo and the arena persist across the pickles of one stream,
/// as in Python's `Unpickler`, whose memo outlives each `load()`.
#[derive(Default)]
pub(super) struct Decoder {
    nodes: Vec<Node>,
    stack: Vec<u32>,
    marks: Vec<usize>,
    memo: HashMap<u64, u32>,
    pos: usize,
    op_at: usize,
    /// The nodes of skipped pickles ([`Decoder::skip`]): built, so that the memo stays in
    /// step with the stream, but never copied out (a later pickle that refers to one is
    /// refused).
    skipped: Vec<std::ops::Range<u32>>,
}

/// Hard stop for the copy-out recursion, above any depth the walker lets through.
const MAX_COPY_DEPTH: usize = 512;

impl Decoder {
    fn bad<T>(&self, reason: impl Into<String>) -> Result<T, PickleError> {
        Err(PickleError::Malformed {
            offset: self.op_at,
            reason: reason.into(),
        })
    }

    fn take<'d>(&mut self, data: &'d [u8], n: usize) -> Result<&'d [u8], PickleError> {
        if data.len() - self.pos < n {
            return Err(PickleError::Truncated {
                offset: data.len(),
                what: "operand",
            });
        }
        let s = &data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn uint(&mut self, data: &[u8], n: usize) -> Result<u64, PickleError> {
        let b = self.take(data, n)?;
        Ok(b.iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
    }

    fn sized<'d>(&mut self, data: &'d [u8], n: usize) -> Result<&'d [u8], PickleError> {
        let len = self.uint(data, n)?;
        match usize::try_from(len) {
            Ok(len) => self.take(data, len),
            Err(_) => self.bad("length out of range"),
        }
    }

    fn line<'d>(&mut self, data: &'d [u8]) -> Result<&'d [u8], PickleError> {
        let rest = &data[self.pos..];
        match rest.iter().position(|&b| b == b'\n') {
            Some(n) => {
                self.pos += n + 1;
                Ok(&rest[..n])
            }
            None => Err(PickleError::Truncated {
                offset: data.len(),
                what: "line",
            }),
        }
    }

    fn node(&mut self, n: Node) -> u32 {
        self.nodes.push(n);
        (self.nodes.len() - 1) as u32
    }

    fn push(&mut self, n: Node) {
        let id = self.node(n);
        self.stack.push(id);
    }

    fn leaf(&mut self, v: Value) {
        self.push(Node::Leaf(v));
    }

    fn floor(&self) -> usize {
        self.marks.last().copied().unwrap_or(0)
    }

    fn pop(&mut self) -> Result<u32, PickleError> {
        if self.stack.len() <= self.floor() {
            return self.bad("stack underflow");
        }
        match self.stack.pop() {
            Some(id) => Ok(id),
            None => self.bad("stack underflow"),
        }
    }

    fn pop_mark(&mut self) -> Result<Vec<u32>, PickleError> {
        match self.marks.pop() {
            Some(m) if m <= self.stack.len() => Ok(self.stack.split_off(m)),
            _ => self.bad("no MARK to pop to"),
        }
    }

    fn top(&self) -> Result<u32, PickleError> {
        if self.stack.len() <= self.floor() {
            return self.bad("stack underflow");
        }
        Ok(self.stack[self.stack.len() - 1])
    }

    fn text(&self, id: u32) -> Result<String, PickleError> {
        match &self.nodes[id as usize] {
            Node::Leaf(Value::Str(s)) => Ok(s.clone()),
            _ => self.bad("STACK_GLOBAL needs two strings"),
        }
    }

    fn is_class(&self, id: u32) -> Option<(String, String)> {
        match &self.nodes[id as usize] {
            Node::Class(m, n) => Some((m.clone(), n.clone())),
            _ => None,
        }
    }

    fn object(&mut self, cls: u32, args: Vec<u32>) -> Result<(), PickleError> {
        let Some((module, name)) = self.is_class(cls) else {
            return self.bad("instance of something that is not a class");
        };
        self.push(Node::Object {
            module,
            name,
            args,
            state: Vec::new(),
        });
        Ok(())
    }

    /// Append `items` to the container on top of the stack.
    fn extend(&mut self, items: Vec<u32>, what: &str) -> Result<(), PickleError> {
        let t = self.top()?;
        let next = self.nodes.len() as u32;
        match (&mut self.nodes[t as usize], what) {
            (Node::List(v), "list") | (Node::Set(v), "set") | (Node::Dict(v), "dict") => {
                v.extend(items);
                Ok(())
            }
            // A BUILD-less object used as a dict (the walker allows the same).
            (Node::Object { state, .. }, "dict") => {
                state.push(next);
                self.nodes.push(Node::Dict(items));
                Ok(())
            }
            _ => self.bad(format!("{what} operation on another type")),
        }
    }

    /// Build the pickle that starts at `start` (already accepted by the walker, which ended
    /// at `end`); returns its value.
    pub(super) fn load(
        &mut self,
        data: &[u8],
        start: usize,
        end: usize,
    ) -> Result<Value, PickleError> {
        let root = self.build(data, start, end)?;
        self.copy_out(root, 0)
    }

    /// Build the pickle that starts at `start` as [`Decoder::load`] does, without copying its
    /// value out: its nodes are marked skipped.
    pub(super) fn skip(
        &mut self,
        data: &[u8],
        start: usize,
        end: usize,
    ) -> Result<(), PickleError> {
        let first = self.nodes.len() as u32;
        self.build(data, start, end)?;
        self.skipped.push(first..self.nodes.len() as u32);
        Ok(())
    }

    /// Copy node `id`, `depth` levels below the root, out as a [`Value`] tree.
    fn copy_out(&self, id: u32, depth: usize) -> Result<Value, PickleError> {
        if self.skipped.iter().any(|r| r.contains(&id)) {
            return Err(PickleError::Malformed {
                offset: self.op_at,
                reason: "refers to a value of a pickle that was skipped".into(),
            });
        }
        if depth > MAX_COPY_DEPTH {
            return Err(PickleError::Limit(format!(
                "nesting deeper than {MAX_COPY_DEPTH} levels"
            )));
        }
        let all = |ids: &[u32]| -> Result<Vec<Value>, PickleError> {
            ids.iter().map(|&c| self.copy_out(c, depth + 1)).collect()
        };
        Ok(match &self.nodes[id as usize] {
            Node::Leaf(v) => v.clone(),
            Node::Tuple(x) => Value::Tuple(all(x)?),
            Node::List(x) => Value::List(all(x)?),
            Node::Set(x) => Value::Set(all(x)?),
            Node::Dict(x) => {
                let flat = all(x)?;
                let mut pairs = Vec::with_capacity(flat.len() / 2);
                let mut it = flat.into_iter();
                while let (Some(k), Some(v)) = (it.next(), it.next()) {
                    pairs.push((k, v));
                }
                Value::Dict(pairs)
            }
            Node::Class(m, n) => Value::Class {
                module: m.clone(),
                name: n.clone(),
            },
            Node::Object {
                module,
                name,
                args,
                state,
            } => Value::Object(Box::new(Object {
                module: module.clone(),
                name: name.clone(),
                args: all(args)?,
                state: all(state)?,
            })),
        })
    }

    /// Run the pickle that starts at `start` on the node arena; its root.
    fn build(&mut self, data: &[u8], start: usize, end: usize) -> Result<u32, PickleError> {
        self.pos = start;
        self.stack.clear();
        self.marks.clear();
        let data = &data[..end];
        loop {
            self.op_at = self.pos;
            let op = self.take(data, 1)?[0];
            if let Some(root) = self.step(data, op)? {
                return Ok(root);
            }
        }
    }

    /// Build one opcode (its byte already read); the root at `STOP`, else `None`. The
    /// walker has accepted the pickle, so a refused opcode never reaches here; one that
    /// does is malformed.
    #[inline]
    fn step(&mut self, data: &[u8], op: u8) -> Result<Option<u32>, PickleError> {
        match op {
            0x80 => {
                self.take(data, 1)?;
            }
            0x95 => {
                self.take(data, 8)?;
            }
            b'.' => return self.stop().map(Some),
            b'(' => self.marks.push(self.stack.len()),
            b'0' => self.pop_op()?,
            b'1' => {
                self.pop_mark()?;
            }
            b'p' | b'g' => self.memo_text(data, op == b'p')?,
            b'q' | b'h' => self.memo_binary(data, 1, op == b'q')?,
            b'r' | b'j' => self.memo_binary(data, 4, op == b'r')?,
            0x94 => self.memoize()?,
            b'N' => self.leaf(Value::None),
            0x88 => self.leaf(Value::Bool(true)),
            0x89 => self.leaf(Value::Bool(false)),
            b'I' => self.int_line(data)?,
            b'L' => self.long_line(data)?,
            b'F' => self.float_line(data)?,
            b'J' => self.binint(data)?,
            b'K' => self.unsigned(data, 1)?,
            b'M' => self.unsigned(data, 2)?,
            b'G' => self.binfloat(data)?,
            0x8a => self.binary_long(data, 1)?,
            0x8b => self.binary_long(data, 4)?,
            b'S' => self.string_literal(data)?,
            b'V' => self.unicode_line(data)?,
            b'U' => self.binstring(data, 1)?,
            b'T' => self.binstring(data, 4)?,
            0x8c => self.binunicode(data, 1)?,
            b'X' => self.binunicode(data, 4)?,
            0x8d => self.binunicode(data, 8)?,
            b'C' => self.binbytes(data, 1)?,
            b'B' => self.binbytes(data, 4)?,
            0x8e | 0x96 => self.binbytes(data, 8)?,
            b')' => self.push(Node::Tuple(Vec::new())),
            b']' => self.push(Node::List(Vec::new())),
            b'}' => self.push(Node::Dict(Vec::new())),
            0x8f => self.push(Node::Set(Vec::new())),
            0x85..=0x87 => self.short_tuple(usize::from(op - 0x84))?,
            b't' => self.collect_mark(Node::Tuple)?,
            b'l' => self.collect_mark(Node::List)?,
            b'd' => self.collect_mark(Node::Dict)?,
            0x91 => self.collect_mark(Node::Set)?,
            b'a' => self.append()?,
            b'e' => self.extend_from_mark("list")?,
            b's' => self.setitem()?,
            b'u' => self.extend_from_mark("dict")?,
            0x90 => self.extend_from_mark("set")?,
            b'c' => self.global(data)?,
            0x93 => self.stack_global()?,
            b'i' => self.inst(data)?,
            b'o' => self.obj()?,
            0x81 => self.newobj(false)?,
            0x92 => self.newobj(true)?,
            b'R' => self.reduce()?,
            b'b' => self.build_state()?,
            _ => return self.bad(format!("opcode 0x{op:02x} is not decoded")),
        }
        Ok(None)
    }

    // Stack and marks: STOP, POP.

    /// STOP: exactly one item and no open mark; the root.
    fn stop(&mut self) -> Result<u32, PickleError> {
        if self.stack.len() != 1 || !self.marks.is_empty() {
            return self.bad("STOP with a stack that is not one value");
        }
        let root = self.stack[0];
        self.stack.clear();
        Ok(root)
    }

    /// POP: the top item, or a whole mark frame when the frame is empty.
    fn pop_op(&mut self) -> Result<(), PickleError> {
        if self.stack.len() == self.floor() && !self.marks.is_empty() {
            self.pop_mark()?;
        } else {
            self.pop()?;
        }
        Ok(())
    }

    // Memo: PUT and GET (`put` tells which) with a decimal, 1- or 4-byte id; MEMOIZE.

    /// PUT, GET: a decimal memo id.
    fn memo_text(&mut self, data: &[u8], put: bool) -> Result<(), PickleError> {
        let l = self.line(data)?;
        let id = match std::str::from_utf8(l)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
        {
            Some(v) => v,
            None => return self.bad("expected a decimal memo id"),
        };
        self.memo_op(put, id)
    }

    /// BINPUT, BINGET (`n` = 1), LONG_BINPUT, LONG_BINGET (`n` = 4).
    fn memo_binary(&mut self, data: &[u8], n: usize, put: bool) -> Result<(), PickleError> {
        let id = self.uint(data, n)?;
        self.memo_op(put, id)
    }

    /// MEMOIZE: the top item under the next free id.
    fn memoize(&mut self) -> Result<(), PickleError> {
        let id = self.memo.len() as u64;
        self.memo_op(true, id)
    }

    fn memo_op(&mut self, put: bool, id: u64) -> Result<(), PickleError> {
        if put {
            let t = self.top()?;
            self.memo.insert(id, t);
        } else {
            match self.memo.get(&id) {
                Some(&n) => self.stack.push(n),
                None => return self.bad(format!("memo entry {id} is not defined")),
            }
        }
        Ok(())
    }
}

/// Numbers and strings: each pushes one leaf.
impl Decoder {
    /// INT: a decimal line; `00` and `01` are Python 2's `False` and `True`.
    fn int_line(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let l = self.line(data)?;
        let v = match l {
            b"00" => Value::Bool(false),
            b"01" => Value::Bool(true),
            _ => match decimal_value(l) {
                Some(v) => v,
                None => return self.bad("INT is not a decimal number"),
            },
        };
        self.leaf(v);
        Ok(())
    }

    /// LONG: a decimal line, with or without Python 2's `L` suffix.
    fn long_line(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let l = self.line(data)?;
        let l = l.strip_suffix(b"L").unwrap_or(l);
        match decimal_value(l) {
            Some(v) => self.leaf(v),
            None => return self.bad("LONG is not a decimal number"),
        }
        Ok(())
    }

    /// FLOAT: a line in Python's `repr` of a float.
    fn float_line(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let l = self.line(data)?;
        match std::str::from_utf8(l).ok().and_then(|s| s.parse().ok()) {
            Some(f) => self.leaf(Value::Float(f)),
            None => return self.bad("FLOAT is not a number"),
        }
        Ok(())
    }

    /// BININT: a signed 4-byte little-endian integer.
    fn binint(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let b = self.take(data, 4)?;
        let n = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        self.leaf(Value::Int(i64::from(n)));
        Ok(())
    }

    /// BININT1, BININT2: an unsigned `n`-byte little-endian integer.
    fn unsigned(&mut self, data: &[u8], n: usize) -> Result<(), PickleError> {
        let n = self.uint(data, n)?;
        self.leaf(Value::Int(n as i64));
        Ok(())
    }

    /// BINFLOAT: an 8-byte big-endian IEEE 754 double.
    fn binfloat(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let b = self.take(data, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        self.leaf(Value::Float(f64::from_be_bytes(a)));
        Ok(())
    }

    /// LONG1, LONG4: a two's complement integer after a `len_bytes`-byte length.
    fn binary_long(&mut self, data: &[u8], len_bytes: usize) -> Result<(), PickleError> {
        let b = self.sized(data, len_bytes)?;
        self.leaf(long_value(b));
        Ok(())
    }

    /// STRING: a quoted Python 2 literal; text when it is UTF-8, else bytes.
    fn string_literal(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let l = self.line(data)?;
        let v = py_string_literal(l);
        self.leaf(text_or_bytes(v));
        Ok(())
    }

    /// UNICODE: a raw-unicode-escape line.
    fn unicode_line(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let l = self.line(data)?;
        self.leaf(Value::Str(raw_unicode_escape(l)));
        Ok(())
    }

    /// SHORT_BINSTRING, BINSTRING: Python 2 `str` bytes; text when UTF-8, else bytes.
    fn binstring(&mut self, data: &[u8], len_bytes: usize) -> Result<(), PickleError> {
        let b = self.sized(data, len_bytes)?;
        self.leaf(text_or_bytes(b.to_vec()));
        Ok(())
    }

    /// SHORT_BINUNICODE, BINUNICODE, BINUNICODE8: UTF-8 text.
    fn binunicode(&mut self, data: &[u8], len_bytes: usize) -> Result<(), PickleError> {
        let b = self.sized(data, len_bytes)?;
        match std::str::from_utf8(b) {
            Ok(s) => self.leaf(Value::Str(s.to_string())),
            Err(_) => return self.bad("string is not valid UTF-8"),
        }
        Ok(())
    }

    /// SHORT_BINBYTES, BINBYTES, BINBYTES8, BYTEARRAY8: bytes.
    fn binbytes(&mut self, data: &[u8], len_bytes: usize) -> Result<(), PickleError> {
        let b = self.sized(data, len_bytes)?;
        self.leaf(Value::Bytes(b.to_vec()));
        Ok(())
    }
}

/// Containers, classes and instances: an instance is recorded as data (class, arguments,
/// state), never constructed or called.
impl Decoder {
    /// TUPLE1, TUPLE2, TUPLE3: a tuple of the top `n` items.
    fn short_tuple(&mut self, n: usize) -> Result<(), PickleError> {
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(self.pop()?);
        }
        items.reverse();
        self.push(Node::Tuple(items));
        Ok(())
    }

    /// TUPLE, LIST, DICT, FROZENSET: the container `make` of the top mark frame.
    fn collect_mark(&mut self, make: fn(Vec<u32>) -> Node) -> Result<(), PickleError> {
        let items = self.pop_mark()?;
        self.push(make(items));
        Ok(())
    }

    /// APPEND: the top item into the list under it.
    fn append(&mut self) -> Result<(), PickleError> {
        let v = self.pop()?;
        self.extend(vec![v], "list")
    }

    /// SETITEM: the top key and value into the dict (or instance) under them.
    fn setitem(&mut self) -> Result<(), PickleError> {
        let v = self.pop()?;
        let k = self.pop()?;
        self.extend(vec![k, v], "dict")
    }

    /// APPENDS, SETITEMS, ADDITEMS: the top mark frame into the `what` under it.
    fn extend_from_mark(&mut self, what: &str) -> Result<(), PickleError> {
        let items = self.pop_mark()?;
        self.extend(items, what)
    }

    /// GLOBAL: a class named by two lines (the walker has checked it is allowed).
    fn global(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let m = String::from_utf8_lossy(self.line(data)?).into_owned();
        let n = String::from_utf8_lossy(self.line(data)?).into_owned();
        self.push(Node::Class(m, n));
        Ok(())
    }

    /// STACK_GLOBAL: a class named by the two strings on top of the stack.
    fn stack_global(&mut self) -> Result<(), PickleError> {
        let n = self.pop()?;
        let m = self.pop()?;
        let (m, n) = (self.text(m)?, self.text(n)?);
        self.push(Node::Class(m, n));
        Ok(())
    }

    /// INST: MARK args... -> obj, of a class named by two lines (Python 2).
    fn inst(&mut self, data: &[u8]) -> Result<(), PickleError> {
        let m = String::from_utf8_lossy(self.line(data)?).into_owned();
        let n = String::from_utf8_lossy(self.line(data)?).into_owned();
        let args = self.pop_mark()?;
        let cls = self.node(Node::Class(m, n));
        self.object(cls, args)
    }

    /// OBJ: MARK cls args... -> obj (Python 2 old-style instances).
    fn obj(&mut self) -> Result<(), PickleError> {
        let mut items = self.pop_mark()?;
        if items.is_empty() {
            return self.bad("OBJ without a class");
        }
        let cls = items.remove(0);
        self.object(cls, items)
    }

    /// NEWOBJ: cls args -> obj; NEWOBJ_EX (`ex`): cls args kwargs -> obj, the kwargs dict
    /// kept as the last argument.
    fn newobj(&mut self, ex: bool) -> Result<(), PickleError> {
        let kwargs = if ex { Some(self.pop()?) } else { None };
        let args = self.pop()?;
        let cls = self.pop()?;
        let mut list = match &self.nodes[args as usize] {
            Node::Tuple(t) => t.clone(),
            _ => return self.bad("NEWOBJ arguments are not a tuple"),
        };
        list.extend(kwargs);
        self.object(cls, list)
    }

    /// REDUCE: cls args -> obj, recorded as data (the walker allows only a class here).
    fn reduce(&mut self) -> Result<(), PickleError> {
        let args = self.pop()?;
        let cls = self.pop()?;
        let list = match &self.nodes[args as usize] {
            Node::Tuple(t) => t.clone(),
            _ => return self.bad("REDUCE arguments are not a tuple"),
        };
        self.object(cls, list)
    }

    /// BUILD: obj state -> obj, the state appended to the instance's.
    fn build_state(&mut self) -> Result<(), PickleError> {
        let st = self.pop()?;
        let obj = self.top()?;
        match &mut self.nodes[obj as usize] {
            Node::Object { state, .. } => state.push(st),
            _ => return self.bad("BUILD on something that is not an instance"),
        }
        Ok(())
    }
}

/// `LONG1`/`LONG4` payload: little-endian two's complement.
fn long_value(b: &[u8]) -> Value {
    // Drop redundant sign bytes, so that one number has one form (Python writes the
    // shortest, the text opcodes may not).
    let mut b = b;
    while let [rest @ .., second, last] = b {
        let redundant = (*last == 0 && second & 0x80 == 0) || (*last == 0xff && second & 0x80 != 0);
        if !redundant {
            break;
        }
        b = &b[..rest.len() + 1];
    }
    if b.is_empty() {
        return Value::Int(0);
    }
    if b.len() <= 8 {
        let neg = b[b.len() - 1] & 0x80 != 0;
        let mut a = [if neg { 0xff } else { 0 }; 8];
        a[..b.len()].copy_from_slice(b);
        return Value::Int(i64::from_le_bytes(a));
    }
    Value::BigInt(b.to_vec())
}

/// A decimal integer of the text opcodes (`INT`, `LONG`): [`Value::Int`] when it fits in
/// 64 bits, else [`Value::BigInt`] (little-endian two's complement, as `LONG1` stores it).
/// The walker bounds the text to 64 characters.
fn decimal_value(text: &[u8]) -> Option<Value> {
    let s = std::str::from_utf8(text).ok()?.trim();
    if let Ok(n) = s.parse::<i64>() {
        return Some(Value::Int(n));
    }
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // magnitude, little-endian
    let mut mag: Vec<u8> = vec![0];
    for d in digits.bytes() {
        let mut carry = u32::from(d - b'0');
        for byte in mag.iter_mut() {
            let v = u32::from(*byte) * 10 + carry;
            *byte = v as u8;
            carry = v >> 8;
        }
        while carry > 0 {
            mag.push(carry as u8);
            carry >>= 8;
        }
    }
    mag.push(0); // room for the sign bit
    if neg {
        // two's complement: invert and add one
        let mut carry = 1u16;
        for byte in mag.iter_mut() {
            let v = u16::from(!*byte) + carry;
            *byte = v as u8;
            carry = v >> 8;
        }
    }
    Some(long_value(&mag))
}

/// A Python 2 `str`: text when it is UTF-8 (Python 3 reads it as `str`), else bytes.
fn text_or_bytes(b: Vec<u8>) -> Value {
    match String::from_utf8(b) {
        Ok(s) => Value::Str(s),
        Err(e) => Value::Bytes(e.into_bytes()),
    }
}

/// The `STRING` opcode's argument: a quoted Python 2 literal with `\` escapes.
fn py_string_literal(l: &[u8]) -> Vec<u8> {
    let inner = match l {
        [q, rest @ .., q2] if (*q == b'\'' || *q == b'"') && q == q2 => rest,
        other => other,
    };
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        let c = inner[i];
        if c != b'\\' || i + 1 == inner.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let e = inner[i + 1];
        i += 2;
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'x' if i + 2 <= inner.len() => {
                match std::str::from_utf8(&inner[i..i + 2])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(v) => out.push(v),
                    None => out.extend_from_slice(b"\\x"),
                }
                i += 2;
            }
            other => out.push(other),
        }
    }
    out
}

/// The `UNICODE` opcode's argument: raw-unicode-escape (`\uXXXX`, `\UXXXXXXXX`).
fn raw_unicode_escape(l: &[u8]) -> String {
    let s = String::from_utf8_lossy(l);
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('u') | Some('U')) {
            let width = if chars.next() == Some('u') { 4 } else { 8 };
            let hex: String = chars.by_ref().take(width).collect();
            match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                Some(ch) => out.push(ch),
                None => {
                    out.push('\\');
                    out.push_str(&hex);
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
