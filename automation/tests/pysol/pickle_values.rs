//! The guarded decoder's values on pickles written by CPython's own pickler (the byte
//! strings below are `pickle.dumps` / `Pickler.dump` output, shown in each comment).

use fcauto_automation::pysol::pickle_guard::{self, Limits, PickleError, Unpickler, Value};

fn decode(data: &[u8]) -> Value {
    pickle_guard::decode(data, &Limits::default(), &[])
        .unwrap()
        .0
}

fn big(n: &str) -> Value {
    // the text path and the LONG1 path must agree: build via protocol 0 text
    decode(format!("L{n}L\n.").as_bytes())
}

#[test]
fn a_list_filled_after_it_was_memoized_is_shared_filled() {
    // a = [1, 2]; pickle.dumps((a, a), 2): the list is memoized empty, then APPENDS
    let v = decode(b"\x80\x02]q\x00(K\x01K\x02eh\x00\x86q\x01.");
    let l = Value::List(vec![Value::Int(1), Value::Int(2)]);
    assert_eq!(v, Value::Tuple(vec![l.clone(), l]));
}

#[test]
fn protocol_0_text_opcodes() {
    // pickle.dumps({'k': 'v', 'n': -5, 'f': 1.5, 'big': 2**70, 'neg': -2**70, 't': True}, 0)
    let v = decode(b"(dp0\nVk\np1\nVv\np2\nsVn\np3\nI-5\nsVf\np4\nF1.5\nsVbig\np5\nL1180591620717411303424L\nsVneg\np6\nL-1180591620717411303424L\nsVt\np7\nI01\ns.");
    assert_eq!(v.get("k"), Some(&Value::Str("v".into())));
    assert_eq!(v.get("n"), Some(&Value::Int(-5)));
    assert_eq!(v.get("f"), Some(&Value::Float(1.5)));
    assert_eq!(v.get("t"), Some(&Value::Bool(true)));
    // 2**70 = 0x40 << 64: nine bytes, little-endian
    let mut b = vec![0u8; 9];
    b[8] = 0x40;
    assert_eq!(v.get("big"), Some(&Value::BigInt(b)));
    let mut n = vec![0u8; 9];
    n[8] = 0xc0; // -2**70 in two's complement
    assert_eq!(v.get("neg"), Some(&Value::BigInt(n)));
}

#[test]
fn binary_longs_agree_with_the_text_form() {
    // pickle.dumps(-1, 2) and pickle.dumps(2**63, 2)
    assert_eq!(decode(b"\x80\x02J\xff\xff\xff\xff."), Value::Int(-1));
    let v = decode(b"\x80\x02\x8a\t\x00\x00\x00\x00\x00\x00\x00\x80\x00.");
    assert_eq!(v, big("9223372036854775808"));
    assert_eq!(big("-9223372036854775808"), Value::Int(i64::MIN));
}

#[test]
fn a_sequence_of_pickles_shares_one_memo() {
    // p = Pickler(f, 2); s = ['shared']; p.dump(s); p.dump((s, 'x'))
    let data = b"\x80\x02]q\x00X\x06\x00\x00\x00sharedq\x01a.\x80\x02h\x00X\x01\x00\x00\x00xq\x02\x86q\x03.";
    let mut u = Unpickler::new(data, &Limits::default(), &[]).unwrap();
    let s = Value::List(vec![Value::Str("shared".into())]);
    assert_eq!(u.load().unwrap(), s);
    assert_eq!(
        u.load().unwrap(),
        Value::Tuple(vec![s, Value::Str("x".into())])
    );
    assert_eq!(u.remaining(), 0);
    assert!(matches!(u.load(), Err(PickleError::Truncated { .. })));
    // the second pickle alone refers to a memo entry it does not have
    let second = &data[data.iter().position(|&b| b == b'.').unwrap() + 1..];
    assert!(matches!(
        pickle_guard::decode(second, &Limits::default(), &[]),
        Err(PickleError::Malformed { .. })
    ));
}

/// A cyclic pickle is refused by `load`, passed over by `skip` (built for the shared memo,
/// never copied out); a later pickle that refers to it is refused, one that does not reads.
#[test]
fn a_skipped_cyclic_pickle_is_never_copied_out() {
    // l = []; l.append(l); p = Pickler(f, 2); p.dump(l); p.dump(l); p.dump(7)
    let data = b"\x80\x02]q\x00h\x00a.\x80\x02h\x00.\x80\x02K\x07.";
    let mut u = Unpickler::new(data, &Limits::default(), &[]).unwrap();
    assert!(matches!(u.load(), Err(PickleError::Limit(_))));
    let mut u = Unpickler::new(data, &Limits::default(), &[]).unwrap();
    u.skip().unwrap();
    assert!(
        u.load().is_err(),
        "the second pickle is the skipped list itself"
    );
    let mut u = Unpickler::new(data, &Limits::default(), &[]).unwrap();
    u.skip().unwrap();
    u.skip().unwrap();
    assert_eq!(u.load().unwrap(), Value::Int(7));
}

#[test]
fn instances_are_data_and_only_allowed_classes_pass() {
    // Python 2 protocol 0: INST of an old-style class with its state dict
    let allowed = [("pysollib.mfxutil", "Struct")];
    let data = b"(ipysollib.mfxutil\nStruct\np0\n(dp1\nS'value'\np2\nI144\nsb.";
    let (v, _) = pickle_guard::decode(data, &Limits::default(), &allowed).unwrap();
    let o = v.as_object().unwrap();
    assert_eq!(o.class_path(), "pysollib.mfxutil.Struct");
    assert!(o.args.is_empty());
    assert_eq!(o.attr("value"), Some(&Value::Int(144)));
    assert_eq!(v.get("value"), Some(&Value::Int(144)));
    let e = pickle_guard::decode(data, &Limits::default(), &[]).unwrap_err();
    assert!(matches!(e, PickleError::UnknownClass { .. }), "{e:?}");
    // Python 2 protocol 2 OBJ, as PySolFC 2.0 wrote its statistics
    let data = b"\x80\x02(cpysollib.mfxutil\nStruct\nq\x01oq\x02}q\x03U\x03numq\x04K\x07sb.";
    let (v, _) = pickle_guard::decode(data, &Limits::default(), &allowed).unwrap();
    assert_eq!(v.get("num"), Some(&Value::Int(7)));
}
