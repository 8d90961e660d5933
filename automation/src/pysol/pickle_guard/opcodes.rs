//! The opcode dispatch of the walker ([`Vm::run`]): what each opcode of protocols 0 to 5
//! does to the stack, the marks, the memo and the node graph, and which opcodes are refused.
//!
//! [`Vm::step`] is the dispatch, one arm per opcode (or per opcodes that differ only in
//! their operand's width or name); the steps it calls are grouped by family below: framing,
//! stack and marks, memo, numbers, strings, containers, classes and instances.

use super::vm::{Item, Kind, Vm};
use super::{leaf_weight, PickleError, MAX_LONG_BYTES};

impl Vm<'_> {
    /// Walk the opcode stream up to `STOP`; returns the pickled value's root.
    pub(super) fn run(&mut self) -> Result<Item, PickleError> {
        self.stack.clear();
        self.marks.clear();
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
            if let Some(root) = self.step(op)? {
                return Ok(root);
            }
        }
    }

    /// Walk one opcode (its byte already read); the root at `STOP`, else `None`.
    #[inline]
    fn step(&mut self, op: u8) -> Result<Option<Item>, PickleError> {
        match op {
            0x80 => self.proto()?,
            0x95 => self.frame()?,
            b'.' => return self.stop().map(Some),
            b'(' => self.mark()?,
            b'0' => self.pop_op()?,
            b'1' => self.pop_mark_op()?,
            b'p' => self.put_text()?,
            b'q' => self.put_binary(1, "BINPUT")?,
            b'r' => self.put_binary(4, "LONG_BINPUT")?,
            0x94 => self.memoize()?,
            b'g' => self.get_text()?,
            b'h' => self.get_binary(1, "BINGET")?,
            b'j' => self.get_binary(4, "LONG_BINGET")?,
            b'N' | 0x88 | 0x89 => self.push(Item::Leaf(1))?,
            b'I' | b'L' | b'F' => self.text_number()?,
            b'J' => self.fixed_number(4, "BININT")?,
            b'K' => self.fixed_number(1, "BININT1")?,
            b'M' => self.fixed_number(2, "BININT2")?,
            b'G' => self.fixed_number(8, "BINFLOAT")?,
            0x8a => self.binary_long(1)?,
            0x8b => self.binary_long(4)?,
            b'S' => self.text_string("STRING")?,
            b'V' => self.text_string("UNICODE")?,
            b'U' => self.sized_string(1, "SHORT_BINSTRING", false)?,
            b'T' => self.sized_string(4, "BINSTRING", false)?,
            0x8c => self.sized_string(1, "SHORT_BINUNICODE", true)?,
            b'X' => self.sized_string(4, "BINUNICODE", true)?,
            0x8d => self.sized_string(8, "BINUNICODE8", true)?,
            b'C' => self.sized_string(1, "SHORT_BINBYTES", false)?,
            b'B' => self.sized_string(4, "BINBYTES", false)?,
            0x8e | 0x96 => self.sized_string(8, "BINBYTES8/BYTEARRAY8", false)?,
            b')' => self.empty(Kind::Tuple)?,
            b']' => self.empty(Kind::List)?,
            b'}' => self.empty(Kind::Dict)?,
            0x8f => self.empty(Kind::Set)?,
            0x85..=0x87 => self.short_tuple(usize::from(op - 0x84))?,
            b't' => self.collect_mark(Kind::Tuple)?,
            b'l' => self.collect_mark(Kind::List)?,
            b'd' => self.collect_mark(Kind::Dict)?,
            0x91 => self.collect_mark(Kind::Set)?,
            b'a' => self.append()?,
            b'e' => self.appends()?,
            b's' => self.setitem()?,
            b'u' => self.setitems()?,
            0x90 => self.additems()?,
            b'c' => self.global()?,
            0x93 => self.stack_global()?,
            b'i' => self.inst()?,
            0x81 => self.newobj(false)?,
            0x92 => self.newobj(true)?,
            b'b' => self.build_state()?,
            b'R' => self.reduce(op)?,
            b'o' => self.obj()?,
            b'2' => return self.refuse(op, "DUP is not allowed (Python never writes it)"),
            b'P' | b'Q' | 0x82 | 0x83 | 0x84 | 0x97 | 0x98 => {
                return self.refuse(
                    op,
                    "opcode not allowed in a PySolFC file (persistent id, extension or out-of-band buffer)",
                )
            }
            _ => return self.refuse(op, "not a pickle opcode"),
        }
        Ok(None)
    }

    /// A refused opcode: [`PickleError::Opcode`] at the opcode's offset.
    fn refuse<T>(&self, op: u8, what: &'static str) -> Result<T, PickleError> {
        Err(PickleError::Opcode {
            offset: self.op_at,
            opcode: op,
            what,
        })
    }

    // Framing: PROTO, FRAME, STOP.

    /// PROTO: the protocol number, at most 5; the first one is kept in the summary.
    fn proto(&mut self) -> Result<(), PickleError> {
        let v = self.uint(1, "PROTO")? as u8;
        if v > 5 {
            return Err(PickleError::Protocol(v));
        }
        self.summary.protocol.get_or_insert(v);
        Ok(())
    }

    /// FRAME: a length that must fit in the rest of the input.
    fn frame(&mut self) -> Result<(), PickleError> {
        let n = self.uint(8, "FRAME")?;
        let remaining = self.data.len() - self.pos;
        if n > remaining as u64 {
            // A frame longer than the file: the file was cut short.
            return Err(PickleError::Truncated {
                offset: self.data.len(),
                what: "FRAME",
            });
        }
        Ok(())
    }

    /// STOP: no open mark and exactly one item, the root.
    fn stop(&mut self) -> Result<Item, PickleError> {
        if !self.marks.is_empty() {
            return self.malformed("STOP with an open MARK");
        }
        if self.stack.len() != 1 {
            return self.malformed(format!(
                "STOP with {} stack items (want 1)",
                self.stack.len()
            ));
        }
        let root = self.stack[0];
        self.stack.clear();
        Ok(root)
    }

    // Stack and marks: MARK, POP, POP_MARK.

    /// MARK: a new frame, within [`super::Limits::max_open_marks`].
    fn mark(&mut self) -> Result<(), PickleError> {
        if self.marks.len() >= self.limits.max_open_marks {
            return Err(PickleError::Limit(format!(
                "more than {} open MARKs",
                self.limits.max_open_marks
            )));
        }
        self.count(1)?;
        self.marks.push(self.stack.len());
        Ok(())
    }

    /// POP: the top item, or a whole mark frame when the frame is empty (as the builder does).
    fn pop_op(&mut self) -> Result<(), PickleError> {
        if self.stack.len() == self.frame_floor() && !self.marks.is_empty() {
            self.pop_mark()?;
        } else {
            self.pop()?;
        }
        Ok(())
    }

    /// POP_MARK: drop the top mark frame.
    fn pop_mark_op(&mut self) -> Result<(), PickleError> {
        self.pop_mark()?;
        Ok(())
    }

    // Memo: PUT, BINPUT, LONG_BINPUT, MEMOIZE, GET, BINGET, LONG_BINGET.

    /// PUT: memoize the top item under a decimal id.
    fn put_text(&mut self) -> Result<(), PickleError> {
        let l = self.line("PUT", 20)?;
        let id = self.ascii_num(l)?;
        self.memo_put(id)
    }

    /// BINPUT, LONG_BINPUT: memoize the top item under an `n`-byte id.
    fn put_binary(&mut self, n: usize, what: &'static str) -> Result<(), PickleError> {
        let id = self.uint(n, what)?;
        self.memo_put(id)
    }

    /// MEMOIZE: memoize the top item under the next free id.
    fn memoize(&mut self) -> Result<(), PickleError> {
        let id = self.memo.len() as u64;
        self.memo_put(id)
    }

    /// GET: push the memo entry of a decimal id.
    fn get_text(&mut self) -> Result<(), PickleError> {
        let l = self.line("GET", 20)?;
        let id = self.ascii_num(l)?;
        self.memo_get(id)
    }

    /// BINGET, LONG_BINGET: push the memo entry of an `n`-byte id.
    fn get_binary(&mut self, n: usize, what: &'static str) -> Result<(), PickleError> {
        let id = self.uint(n, what)?;
        self.memo_get(id)
    }
}

/// Numbers, strings and containers: what each pushes or fills, and its weight.
impl Vm<'_> {
    /// INT, LONG, FLOAT: a decimal line of at most 64 bytes.
    fn text_number(&mut self) -> Result<(), PickleError> {
        let l = self.line("INT/LONG/FLOAT", 64)?;
        let w = leaf_weight(l.len());
        self.push(Item::Leaf(w))
    }

    /// BININT, BININT1, BININT2, BINFLOAT: an `n`-byte operand.
    fn fixed_number(&mut self, n: usize, what: &'static str) -> Result<(), PickleError> {
        self.take(n, what)?;
        self.push(Item::Leaf(1))
    }

    /// LONG1, LONG4: a length-prefixed integer of at most [`MAX_LONG_BYTES`] bytes.
    fn binary_long(&mut self, len_bytes: usize) -> Result<(), PickleError> {
        let b = self.sized(len_bytes, "LONG1/LONG4")?;
        if b.len() > MAX_LONG_BYTES {
            return self.malformed(format!(
                "binary long integer longer than {MAX_LONG_BYTES} bytes"
            ));
        }
        self.push(Item::Leaf(1))
    }

    /// STRING, UNICODE: a line of at most 1 MiB.
    fn text_string(&mut self, what: &'static str) -> Result<(), PickleError> {
        let l = self.line(what, 1 << 20)?;
        self.push_str(l, false)
    }

    /// The length-prefixed strings and bytes; `is_text` for the UTF-8 ones.
    fn sized_string(
        &mut self,
        len_bytes: usize,
        what: &'static str,
        is_text: bool,
    ) -> Result<(), PickleError> {
        let s = self.sized(len_bytes, what)?;
        self.push_str(s, is_text)
    }

    /// EMPTY_TUPLE, EMPTY_LIST, EMPTY_DICT, EMPTY_SET.
    fn empty(&mut self, kind: Kind) -> Result<(), PickleError> {
        self.push_node(kind, 1, None)?;
        Ok(())
    }

    /// TUPLE1, TUPLE2, TUPLE3: a tuple of the top `n` items.
    fn short_tuple(&mut self, n: usize) -> Result<(), PickleError> {
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(self.pop()?);
        }
        items.reverse();
        let id = self.push_node(Kind::Tuple, 1, None)?;
        self.add_children(id, &items)
    }

    /// TUPLE, LIST, DICT, FROZENSET: a container of the top mark frame (a dict's has pairs).
    fn collect_mark(&mut self, kind: Kind) -> Result<(), PickleError> {
        let items = self.pop_mark()?;
        if kind == Kind::Dict && items.len() % 2 != 0 {
            return self.malformed("DICT with an odd number of items");
        }
        let id = self.push_node(kind, 1, None)?;
        self.add_children(id, &items)
    }

    /// APPEND: the top item into the list under it.
    fn append(&mut self) -> Result<(), PickleError> {
        let v = self.pop()?;
        self.modify(Kind::List, &[v])
    }

    /// APPENDS: the top mark frame into the list under it.
    fn appends(&mut self) -> Result<(), PickleError> {
        let items = self.pop_mark()?;
        self.modify(Kind::List, &items)
    }

    /// SETITEM: the top key and value into the dict (or instance) under them.
    fn setitem(&mut self) -> Result<(), PickleError> {
        let v = self.pop()?;
        let k = self.pop()?;
        self.modify(Kind::Dict, &[k, v])
    }

    /// SETITEMS: the top mark frame's pairs into the dict (or instance) under it.
    fn setitems(&mut self) -> Result<(), PickleError> {
        let items = self.pop_mark()?;
        if items.len() % 2 != 0 {
            return self.malformed("SETITEMS with an odd number of items");
        }
        self.modify(Kind::Dict, &items)
    }

    /// ADDITEMS: the top mark frame into the set under it.
    fn additems(&mut self) -> Result<(), PickleError> {
        let items = self.pop_mark()?;
        self.modify(Kind::Set, &items)
    }
}

/// Classes and instances: every class reference goes through the allow-list, and an
/// instance is recorded as data (class, arguments, state), never constructed or called.
impl Vm<'_> {
    /// GLOBAL: a class named by two lines, if allowed.
    fn global(&mut self) -> Result<(), PickleError> {
        let m = self.line("GLOBAL", 200)?;
        let n = self.line("GLOBAL", 200)?;
        let (m, n) = (String::from_utf8_lossy(m), String::from_utf8_lossy(n));
        let id = self.allow_class(&m, &n)?;
        self.push(Item::Node(id))
    }

    /// STACK_GLOBAL: a class named by the two strings on top of the stack, if allowed.
    fn stack_global(&mut self) -> Result<(), PickleError> {
        let n = self.pop_text()?;
        let m = self.pop_text()?;
        let id = self.allow_class(&m, &n)?;
        self.push(Item::Node(id))
    }

    /// INST: MARK args... -> obj, of a class named by two lines, if allowed (Python 2).
    fn inst(&mut self) -> Result<(), PickleError> {
        let m = self.line("INST", 200)?;
        let n = self.line("INST", 200)?;
        let (m, n) = (String::from_utf8_lossy(m), String::from_utf8_lossy(n));
        self.allow_class(&m, &n)?;
        let items = self.pop_mark()?;
        let id = self.push_node(Kind::Object, 1, None)?;
        self.add_children(id, &items)
    }

    /// NEWOBJ: cls args -> obj; NEWOBJ_EX (`ex`): cls args kwargs -> obj.
    fn newobj(&mut self, ex: bool) -> Result<(), PickleError> {
        let mut args = vec![self.pop()?];
        if ex {
            args.insert(0, self.pop()?);
        }
        match self.pop()? {
            Item::Node(c) if self.nodes[c as usize].kind == Kind::Class => {}
            _ => return self.malformed("NEWOBJ without a class"),
        }
        let id = self.push_node(Kind::Object, 1, None)?;
        self.add_children(id, &args)
    }

    /// BUILD: obj state -> obj (the builder keeps the state as data).
    fn build_state(&mut self) -> Result<(), PickleError> {
        let state = self.pop()?;
        let obj = self.top_node()?;
        if self.nodes[obj as usize].kind != Kind::Object {
            return self.malformed("BUILD on something that is not an instance");
        }
        self.add_children(obj, &[state])
    }

    /// REDUCE: callable args -> obj; only an allowed class may be the callable, and the
    /// result is recorded as data (class + args), never called.
    fn reduce(&mut self, op: u8) -> Result<(), PickleError> {
        let args = self.pop()?;
        match self.pop()? {
            Item::Node(c) if self.nodes[c as usize].kind == Kind::Class => {}
            _ => return self.refuse(op, "REDUCE of something that is not an allowed class"),
        }
        let id = self.push_node(Kind::Object, 1, None)?;
        self.add_children(id, &[args])
    }

    /// OBJ: MARK cls args... -> obj (Python 2 old-style instances).
    fn obj(&mut self) -> Result<(), PickleError> {
        let items = self.pop_mark()?;
        match items.first() {
            Some(&Item::Node(c)) if self.nodes[c as usize].kind == Kind::Class => {}
            _ => return self.malformed("OBJ without a class after its MARK"),
        }
        let id = self.push_node(Kind::Object, 1, None)?;
        self.add_children(id, &items[1..])
    }
}
