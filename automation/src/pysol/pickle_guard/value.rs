//! The decoded value of a pickle: plain data, with class instances kept as data (class name,
//! constructor arguments and state), never as running objects.

use std::fmt;

/// One decoded pickle value.
///
/// Python types map as follows: `None`, `bool`, `int` (up to 64 bits as [`Value::Int`],
/// larger as [`Value::BigInt`]), `float`, `str` (and Python 2 `str` that is valid UTF-8, as
/// Python 3's unpickler reads it with its default `encoding="ASCII"`/UTF-8), `bytes` (and
/// Python 2 `str` that is not UTF-8), `tuple`, `list`, `dict` (keys in pickle order, any
/// type), `set`/`frozenset`, a class reference, and an instance ([`Object`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// An `int` that fits in 64 bits.
    Int(i64),
    /// A larger `int`, as little-endian two's-complement bytes (pickle's `LONG1`/`LONG4`
    /// payload), e.g. PySolFC's deal seed `ms617`, which is `(1 << 1000) | 617`.
    BigInt(Vec<u8>),
    /// A `float`.
    Float(f64),
    /// A `str`.
    Str(String),
    /// A `bytes` or `bytearray`.
    Bytes(Vec<u8>),
    /// A `tuple`.
    Tuple(Vec<Value>),
    /// A `list`.
    List(Vec<Value>),
    /// A `dict`, as `(key, value)` pairs in pickle order.
    Dict(Vec<(Value, Value)>),
    /// A `set` or `frozenset`.
    Set(Vec<Value>),
    /// A class reference (`GLOBAL`/`STACK_GLOBAL`) that was not instantiated.
    Class {
        /// Module, e.g. `pysollib.move`.
        module: String,
        /// Class name, e.g. `AMoveMove`.
        name: String,
    },
    /// An instance of an allowed class.
    Object(Box<Object>),
}

/// An instance as the pickle describes it: made by `NEWOBJ`/`NEWOBJ_EX` (class + args),
/// `OBJ`/`INST` (Python 2; class + args) or `REDUCE` (class called with an args tuple), and
/// filled by `BUILD` (its state, usually the attribute dict). Nothing of the class runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Object {
    /// Module of the class, e.g. `pysollib.game`.
    pub module: String,
    /// Class name, e.g. `GameMoves`.
    pub name: String,
    /// Constructor arguments: `NEWOBJ`'s args tuple (usually empty), `OBJ`/`INST`'s items,
    /// `REDUCE`'s args tuple; `NEWOBJ_EX` adds its kwargs dict as the last item.
    pub args: Vec<Value>,
    /// The `BUILD` states in order (normally one: the `__dict__`; a `(dict, slots)` tuple for
    /// classes with `__slots__`). Empty when the object was never built.
    pub state: Vec<Value>,
}

impl Object {
    /// The attribute `name`: looked up in the state dicts (the last `BUILD` wins, and the
    /// slots dict of a `(dict, slots)` state counts too). `None` if absent.
    pub fn attr(&self, name: &str) -> Option<&Value> {
        let mut found = None;
        for s in &self.state {
            let dicts: Vec<&Value> = match s {
                Value::Tuple(t) if t.len() == 2 => vec![&t[0], &t[1]],
                other => vec![other],
            };
            for d in dicts {
                if let Some(v) = d.get(name) {
                    found = Some(v);
                }
            }
        }
        found
    }

    /// `module.name`, e.g. `pysollib.move.AMoveMove`.
    pub fn class_path(&self) -> String {
        format!("{}.{}", self.module, self.name)
    }
}

impl Value {
    /// For a dict: the value at the `str` key `key` (also a Python 2 bytes key). For an
    /// object: its attribute (see [`Object::attr`]). Otherwise `None`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Dict(items) => items.iter().rev().find_map(|(k, v)| match k {
                Value::Str(s) if s == key => Some(v),
                Value::Bytes(b) if b == key.as_bytes() => Some(v),
                _ => None,
            }),
            Value::Object(o) => o.attr(key),
            _ => None,
        }
    }

    /// An `int` or `bool` that fits in `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            Value::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }

    /// A number as `f64` (ints convert, possibly rounding).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(n) => Some(*n as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// A `str` (or a Python 2 byte string, read as lossy UTF-8).
    pub fn as_text(&self) -> Option<String> {
        match self {
            Value::Str(s) => Some(s.clone()),
            Value::Bytes(b) => Some(String::from_utf8_lossy(b).into_owned()),
            _ => None,
        }
    }

    /// The items of a tuple or list.
    pub fn as_seq(&self) -> Option<&[Value]> {
        match self {
            Value::Tuple(x) | Value::List(x) => Some(x),
            _ => None,
        }
    }

    /// The instance, if this is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Truthiness the way Python's `bool()` sees these values (objects are true).
    pub fn truthy(&self) -> bool {
        match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::BigInt(b) => b.iter().any(|&x| x != 0),
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::Tuple(x) | Value::List(x) | Value::Set(x) => !x.is_empty(),
            Value::Dict(x) => !x.is_empty(),
            Value::Class { .. } | Value::Object(_) => true,
        }
    }

    /// Python's name for the value's type, for error messages (`int`, `str`, `tuple`, the
    /// class name of an instance, ...).
    pub fn type_name(&self) -> String {
        match self {
            Value::None => "None".into(),
            Value::Bool(_) => "bool".into(),
            Value::Int(_) | Value::BigInt(_) => "int".into(),
            Value::Float(_) => "float".into(),
            Value::Str(_) => "str".into(),
            Value::Bytes(_) => "bytes".into(),
            Value::Tuple(_) => "tuple".into(),
            Value::List(_) => "list".into(),
            Value::Dict(_) => "dict".into(),
            Value::Set(_) => "set".into(),
            Value::Class { module, name } => format!("class {module}.{name}"),
            Value::Object(o) => format!("{} instance", o.class_path()),
        }
    }
}

/// A short Python-like rendering for messages (long containers are cut).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn seq(
            f: &mut fmt::Formatter<'_>,
            open: &str,
            items: &[Value],
            close: &str,
        ) -> fmt::Result {
            write!(f, "{open}")?;
            for (i, v) in items.iter().take(8).enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{v}")?;
            }
            if items.len() > 8 {
                write!(f, ", ...")?;
            }
            write!(f, "{close}")
        }
        match self {
            Value::None => write!(f, "None"),
            Value::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Value::Int(n) => write!(f, "{n}"),
            Value::BigInt(b) => write!(f, "<{}-byte int>", b.len()),
            // As Python shows it: 2.0, not 2.
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Str(s) => write!(f, "{:?}", s.chars().take(60).collect::<String>()),
            Value::Bytes(b) => write!(f, "<{} bytes>", b.len()),
            Value::Tuple(x) => seq(f, "(", x, ")"),
            Value::List(x) => seq(f, "[", x, "]"),
            Value::Set(x) => seq(f, "{", x, "}"),
            Value::Dict(x) => write!(f, "{{{} items}}", x.len()),
            Value::Class { module, name } => write!(f, "<class {module}.{name}>"),
            Value::Object(o) => write!(f, "<{} object>", o.class_path()),
        }
    }
}
