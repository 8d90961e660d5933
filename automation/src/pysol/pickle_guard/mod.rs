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

mod measure;
mod opcodes;
mod vm;

use vm::Vm;

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
