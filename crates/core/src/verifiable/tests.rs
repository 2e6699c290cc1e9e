use super::*;
use proptest::prelude::*;

fn seed() -> ServerSeed {
    let mut b = [0u8; 32];
    for (i, x) in b.iter_mut().enumerate() {
        *x = i as u8;
    }
    ServerSeed::from_bytes(b)
}

fn seeds(white: &str, black: &str) -> ClientSeeds {
    ClientSeeds {
        white: white.to_string(),
        black: black.to_string(),
    }
}

fn values(r: DiceRoll) -> [u8; 2] {
    [r.first.value(), r.second.value()]
}

/// An honest, revealed record of `n` rolls with distinct nonces.
fn honest_record(n: u64) -> DiceRecord {
    let s = seed();
    let mut record = DiceRecord::new(s.commitment(), seeds("white-client", "black-client"));
    for i in 0..n {
        record.roll_next(&s, &format!("nonce-{i:04}"));
    }
    record.reveal(&s);
    record
}

/// How many of `n` rolls agree between two derivations.
fn agreements(n: u64, a: impl Fn(u64) -> DiceRoll, b: impl Fn(u64) -> DiceRoll) -> u64 {
    (0..n).filter(|&i| a(i) == b(i)).count() as u64
}

#[test]
fn the_commitment_is_the_sha256_of_the_seed_bytes() {
    assert_eq!(
        ServerSeed::from_bytes([0; 32]).commitment(),
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    );
    assert_eq!(
        seed().commitment(),
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    );
}

#[test]
fn seed_hex_round_trips_and_refuses_malformed_text() {
    let s = seed();
    let hex = s.to_hex();
    assert_eq!(
        hex,
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    );
    assert_eq!(ServerSeed::from_hex(&hex).unwrap(), s);
    assert_eq!(ServerSeed::from_hex(&hex.to_uppercase()).unwrap(), s);
    for bad in [
        "",
        "00",
        &hex[..62],
        &format!("{hex}00"),
        &hex.replace('a', "g"),
    ] {
        assert!(
            matches!(ServerSeed::from_hex(bad), Err(VerifyError::BadSeed(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn debug_output_shows_the_commitment_not_the_seed() {
    let text = format!("{:?}", seed());
    assert!(text.contains(&seed().commitment()));
    assert!(!text.contains(&seed().to_hex()));
}

#[test]
fn generated_seeds_differ() {
    assert_ne!(ServerSeed::generate(), ServerSeed::generate());
}

/// Vectors computed by an independent implementation (Python's `hmac` and `hashlib`) of the
/// layout in docs/dice.md.
#[test]
fn known_answer_vectors_match_an_independent_implementation() {
    let s = seed();
    assert_eq!(
        hex::encode(message(&seeds("w", "b"), 7, "f3a9")),
        "000000000000000e746162756c612d646963652d7631\
         00000000000000017700000000000000016200000000\
         00000007000000000000000466336139"
    );
    assert_eq!(values(s.roll(&seeds("alice-seed", ""), 0, "n0")), [6, 6]);
    assert_eq!(values(s.roll(&seeds("alice-seed", ""), 1, "n1")), [6, 6]);
    assert_eq!(values(s.roll(&seeds("w", "b"), 7, "f3a9")), [4, 4]);
    assert_eq!(values(s.roll(&ClientSeeds::default(), 0, "")), [4, 6]);
    // 100 faces take four HMAC blocks, so this also checks the block counter.
    let stream: String = faces(&s, &seeds("alice-seed", "bob-seed"), 3, "nonce", 100)
        .iter()
        .map(|f| char::from(b'0' + f))
        .collect();
    assert_eq!(
        stream,
        "6113122126661262634453623415255443154556256122265352315621255332431556623243153536355126141613514363"
    );
}

#[test]
fn bytes_252_to_255_are_skipped_and_the_rest_map_42_to_each_face() {
    for b in 252..=255u8 {
        assert_eq!(face_of_byte(b), None);
    }
    assert_eq!(face_of_byte(0), Some(1));
    assert_eq!(face_of_byte(5), Some(6));
    assert_eq!(face_of_byte(251), Some(6));
    let mut counts = [0u32; 7];
    for b in 0..=255u8 {
        if let Some(f) = face_of_byte(b) {
            counts[f as usize] += 1;
        }
    }
    assert_eq!(counts, [0, 42, 42, 42, 42, 42, 42]);
}

#[test]
fn the_same_inputs_give_the_same_roll() {
    let cs = seeds("a", "b");
    for n in 0..100 {
        let nonce = format!("{n}");
        assert_eq!(seed().roll(&cs, n, &nonce), seed().roll(&cs, n, &nonce));
    }
}

// Two independent streams agree on an ordered roll 1 time in 36: about 56 of 2,000.
const N: u64 = 2000;
const MAX_AGREEMENTS: u64 = 120;

#[test]
fn a_different_nonce_changes_the_stream() {
    let (s, cs) = (seed(), seeds("a", "b"));
    let same = agreements(
        N,
        |i| s.roll(&cs, i, &format!("x{i}")),
        |i| s.roll(&cs, i, &format!("y{i}")),
    );
    assert!(same < MAX_AGREEMENTS, "{same}");
}

#[test]
fn a_different_client_seed_changes_the_stream() {
    let s = &seed();
    let base = |cs: ClientSeeds| move |i: u64| s.roll(&cs, i, "nonce");
    let same = agreements(N, base(seeds("a", "b")), base(seeds("a2", "b")));
    assert!(same < MAX_AGREEMENTS, "white: {same}");
    let same = agreements(N, base(seeds("a", "b")), base(seeds("a", "b2")));
    assert!(same < MAX_AGREEMENTS, "black: {same}");
    // Swapping the seats' seeds is a different input, not the same one.
    let same = agreements(N, base(seeds("a", "b")), base(seeds("b", "a")));
    assert!(same < MAX_AGREEMENTS, "swapped: {same}");
}

#[test]
fn a_different_roll_number_changes_the_stream() {
    let (s, cs) = (seed(), seeds("a", "b"));
    let same = agreements(N, |i| s.roll(&cs, i, "n"), |i| s.roll(&cs, i + 1, "n"));
    assert!(same < MAX_AGREEMENTS, "{same}");
}

#[test]
fn a_different_server_seed_changes_the_stream() {
    let cs = seeds("a", "b");
    let other = ServerSeed::from_bytes([7; 32]);
    let same = agreements(N, |i| seed().roll(&cs, i, "n"), |i| other.roll(&cs, i, "n"));
    assert!(same < MAX_AGREEMENTS, "{same}");
}

#[test]
fn the_message_encoding_is_unambiguous_between_fields() {
    let m = |w: &str, b: &str, n: u64, nonce: &str| message(&seeds(w, b), n, nonce);
    assert_ne!(m("ab", "c", 0, ""), m("a", "bc", 0, ""));
    assert_ne!(m("", "ab", 0, ""), m("", "", 0, "ab"));
    assert_ne!(m("", "", 0, "a"), m("", "", 0, "a\0"));
    assert_ne!(m("", "", 1, ""), m("", "", 256, ""));
}

#[test]
fn every_face_is_in_one_to_six() {
    let (s, cs) = (seed(), seeds("a", "b"));
    for n in 0..500 {
        let r = s.roll(&cs, n, "n");
        assert!((1..=6).contains(&r.first.value()) && (1..=6).contains(&r.second.value()));
    }
    let f = faces(&s, &cs, 0, "long", 5000);
    assert!(f.iter().all(|x| (1..=6).contains(x)));
}

/// Pearson's chi-square statistic of `counts` against equal expected counts.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// 30,000 rolls (60,000 dice) from fixed inputs: deterministic, so it cannot flake.
#[test]
fn faces_and_ordered_pairs_pass_a_chi_square_test_at_99_9_percent() {
    let (s, cs) = (seed(), seeds("white-client", "black-client"));
    let mut faces = [0u64; 6];
    let mut pairs = [0u64; 36];
    for n in 0..30_000u64 {
        let r = s.roll(
            &cs,
            n,
            &format!("{:016x}", n.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
        );
        let (a, b) = (r.first.value() as usize - 1, r.second.value() as usize - 1);
        faces[a] += 1;
        faces[b] += 1;
        pairs[a * 6 + b] += 1;
    }
    let (faces_chi, pairs_chi) = (chi_square(&faces), chi_square(&pairs));
    assert!(faces_chi < 20.52, "faces {faces:?}: chi-square {faces_chi}");
    assert!(pairs_chi < 66.62, "pairs {pairs:?}: chi-square {pairs_chi}");
}

#[test]
fn verify_accepts_an_honest_record_of_200_rolls() {
    assert_eq!(verify(&honest_record(200)), Ok(200));
}

#[test]
fn verify_accepts_an_uppercase_commitment_and_seed() {
    let mut r = honest_record(20);
    r.commitment = r.commitment.to_uppercase();
    r.server_seed = r.server_seed.map(|s| s.to_uppercase());
    assert_eq!(verify(&r), Ok(20));
}

#[test]
fn verify_refuses_a_record_whose_seed_is_not_revealed() {
    let mut r = honest_record(5);
    r.server_seed = None;
    assert_eq!(verify(&r), Err(VerifyError::NotRevealed));
}

#[test]
fn verify_refuses_a_malformed_seed() {
    let mut r = honest_record(5);
    r.server_seed = Some("not hex".into());
    assert!(matches!(verify(&r), Err(VerifyError::BadSeed(_))));
}

#[test]
fn tampering_with_one_rolls_dice_is_detected() {
    let mut r = honest_record(200);
    let honest = r.rolls[137].dice;
    r.rolls[137].dice[1] = honest[1] % 6 + 1;
    assert_eq!(
        verify(&r),
        Err(VerifyError::RollMismatch {
            number: 137,
            recorded: r.rolls[137].dice,
            derived: honest,
        })
    );
}

#[test]
fn tampering_with_one_rolls_nonce_is_detected() {
    let mut r = honest_record(200);
    r.rolls[42].nonce = "nonce-0042x".into();
    assert!(matches!(
        verify(&r),
        Err(VerifyError::RollMismatch { number: 42, .. })
    ));
}

#[test]
fn tampering_with_a_client_seed_is_detected() {
    for change in [
        |cs: &mut ClientSeeds| cs.white.push('!'),
        |cs: &mut ClientSeeds| cs.black.clear(),
    ] {
        let mut r = honest_record(200);
        change(&mut r.client_seeds);
        assert!(matches!(verify(&r), Err(VerifyError::RollMismatch { .. })));
    }
}

#[test]
fn tampering_with_the_server_seed_is_detected() {
    let mut r = honest_record(200);
    r.server_seed = Some(ServerSeed::from_bytes([9; 32]).to_hex());
    assert!(matches!(
        verify(&r),
        Err(VerifyError::CommitmentMismatch { .. })
    ));
}

#[test]
fn tampering_with_the_commitment_is_detected() {
    let mut r = honest_record(200);
    r.commitment = ServerSeed::from_bytes([9; 32]).commitment();
    assert_eq!(
        verify(&r),
        Err(VerifyError::CommitmentMismatch {
            recorded: r.commitment.clone(),
            derived: seed().commitment(),
        })
    );
}

#[test]
fn a_missing_reordered_or_renumbered_roll_is_detected() {
    let mut r = honest_record(10);
    r.rolls.remove(3);
    assert_eq!(
        verify(&r),
        Err(VerifyError::RollOutOfOrder {
            index: 3,
            expected: 3,
            found: 4
        })
    );
    let mut r = honest_record(10);
    r.rolls.swap(0, 1);
    assert!(matches!(
        verify(&r),
        Err(VerifyError::RollOutOfOrder { index: 0, .. })
    ));
}

#[test]
fn the_record_serializes_with_stable_field_names() {
    let mut r = honest_record(1);
    r.rolls[0].dice = [3, 5];
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "commitment": seed().commitment(),
            "server_seed": seed().to_hex(),
            "client_seeds": {"white": "white-client", "black": "black-client"},
            "rolls": [{"number": 0, "nonce": "nonce-0000", "dice": [3, 5]}],
        })
    );
    assert_eq!(serde_json::from_value::<DiceRecord>(json).unwrap(), r);
    assert_eq!(r.rolls[0].dice_roll(), Some(DiceRoll::new(3, 5).unwrap()));
}

proptest! {
    #[test]
    fn any_honest_record_verifies(
        seed_bytes in any::<[u8; 32]>(),
        white in ".{0,20}",
        black in ".{0,20}",
        nonces in proptest::collection::vec(".{0,24}", 0..12),
    ) {
        let s = ServerSeed::from_bytes(seed_bytes);
        let mut r = DiceRecord::new(s.commitment(), seeds(&white, &black));
        prop_assert!(matches!(verify(&r), Err(VerifyError::NotRevealed)));
        for nonce in &nonces {
            let roll = r.roll_next(&s, nonce);
            prop_assert!((1..=6).contains(&roll.first.value()));
            prop_assert!((1..=6).contains(&roll.second.value()));
        }
        r.reveal(&s);
        prop_assert_eq!(verify(&r), Ok(nonces.len()));
    }

    #[test]
    fn distinct_inputs_give_distinct_messages(
        a in ("[ab\\x00]{0,3}", "[ab\\x00]{0,3}", 0u64..3, "[ab\\x00]{0,3}"),
        b in ("[ab\\x00]{0,3}", "[ab\\x00]{0,3}", 0u64..3, "[ab\\x00]{0,3}"),
    ) {
        let ma = message(&seeds(&a.0, &a.1), a.2, &a.3);
        let mb = message(&seeds(&b.0, &b.1), b.2, &b.3);
        prop_assert_eq!(ma == mb, a == b);
    }
}

#[test]
fn a_server_roll_verifies_only_with_the_nonce_fixed_by_its_number() {
    let s = seed();
    let mut record = DiceRecord::new(s.commitment(), seeds("white-client", ""));
    record.roll_next(&s, "client-nonce-0");
    record.roll_next(&s, "server:1");
    record.roll_next(&s, "client-nonce-2");
    record.reveal(&s);
    assert_eq!(verify(&record), Ok(3));
    // A server that picked its nonce ("server:7" for roll 1) is caught even though the dice
    // it recorded derive correctly from that nonce.
    let mut chosen = DiceRecord::new(s.commitment(), seeds("white-client", ""));
    chosen.roll_next(&s, "client-nonce-0");
    chosen.roll_next(&s, "server:7");
    chosen.reveal(&s);
    assert!(matches!(
        verify(&chosen),
        Err(VerifyError::ServerNonce { number: 1, .. })
    ));
}
