//! The opcode dispatch of the walker ([`Vm::run`]): what each opcode of protocols 0 to 5
//! does to the stack, the marks, the memo and the node graph, and which opcodes are refused.

use super::vm::{Item, Kind, Vm};
use super::{leaf_weight, PickleError, MAX_LONG_BYTES};

impl Vm<'_> {
    /// Walk the opcode stream up to `STOP`; returns the pickled value's root.
    /// Kept whole (over 80 lines): the interpreter's dispatch, a match with one arm per opcode.
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
                    let root = self.stack[0];
                    self.stack.clear();
                    return Ok(root);
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
                    // POP (a whole mark frame when the frame is empty, as the builder does)
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
                    if b.len() > MAX_LONG_BYTES {
                        return self.malformed(format!(
                            "binary long integer longer than {MAX_LONG_BYTES} bytes"
                        ));
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
                    let items = self.pop_mark()?;
                    let id = self.push_node(Kind::Object, 1, None)?;
                    self.add_children(id, &items)?;
                }
                0x81 | 0x92 => {
                    // NEWOBJ: cls args -> obj; NEWOBJ_EX: cls args kwargs -> obj
                    let mut args = vec![self.pop()?];
                    if op == 0x92 {
                        args.insert(0, self.pop()?);
                    }
                    match self.pop()? {
                        Item::Node(c) if self.nodes[c as usize].kind == Kind::Class => {}
                        _ => return self.malformed("NEWOBJ without a class"),
                    }
                    let id = self.push_node(Kind::Object, 1, None)?;
                    self.add_children(id, &args)?;
                }
                b'b' => {
                    // BUILD: obj state -> obj (the builder keeps the state as data)
                    let state = self.pop()?;
                    let obj = self.top_node()?;
                    if self.nodes[obj as usize].kind != Kind::Object {
                        return self.malformed("BUILD on something that is not an instance");
                    }
                    self.add_children(obj, &[state])?;
                }
                b'R' => {
                    // REDUCE: callable args -> obj; only an allowed class may be the callable,
                    // and the result is recorded as data (class + args), never called.
                    let args = self.pop()?;
                    match self.pop()? {
                        Item::Node(c) if self.nodes[c as usize].kind == Kind::Class => {}
                        _ => {
                            return Err(PickleError::Opcode {
                                offset: self.op_at,
                                opcode: op,
                                what: "REDUCE of something that is not an allowed class",
                            })
                        }
                    }
                    let id = self.push_node(Kind::Object, 1, None)?;
                    self.add_children(id, &[args])?;
                }
                b'o' => {
                    // OBJ: MARK cls args... -> obj (Python 2 old-style instances)
                    let items = self.pop_mark()?;
                    match items.first() {
                        Some(&Item::Node(c)) if self.nodes[c as usize].kind == Kind::Class => {}
                        _ => return self.malformed("OBJ without a class after its MARK"),
                    }
                    let id = self.push_node(Kind::Object, 1, None)?;
                    self.add_children(id, &items[1..])?;
                }
                b'2' => {
                    return Err(PickleError::Opcode {
                        offset: self.op_at,
                        opcode: op,
                        what: "DUP is not allowed (Python never writes it)",
                    })
                }
                b'P' | b'Q' | 0x82 | 0x83 | 0x84 | 0x97 | 0x98 => {
                    return Err(PickleError::Opcode {
                        offset: self.op_at,
                        opcode: op,
                        what: "opcode not allowed in a PySolFC file (persistent id, extension or out-of-band buffer)",
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
}
