//! Regression tests for the crashes, hangs and invariant violations found while fuzzing
//! (docs/development.md, "Fuzzing"). Each input is minimised and built inline; each test
//! failed before its fix. They run the same body as the fuzz target
//! (`skillguard::fuzzing`) and, where it says more, the entry point itself.

use skillguard::fuzzing;
use skillguard::security::archive;

fn le16(v: u16) -> [u8; 2] {
    v.to_le_bytes()
}

fn le32(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

/// A one-member stored zip `a.txt` = `hello`, with the central directory entry's local
/// header offset replaced by `lho` and `extra` as its extra field, and the end record's
/// counts and sizes replaced by `eocd_counts` when given (`(count, cd_size, cd_off)`),
/// with `before_eocd` inserted between the central directory and the end record.
fn zip(
    lho: u32,
    extra: &[u8],
    eocd_counts: Option<(u16, u32, u32)>,
    before_eocd: &[u8],
) -> Vec<u8> {
    let (name, data) = (b"a.txt", b"hello");
    let mut z = Vec::new();
    z.extend_from_slice(b"PK\x03\x04");
    for v in [20u16, 0, 0, 0, 0] {
        z.extend_from_slice(&le16(v));
    }
    for v in [0u32, 5, 5] {
        z.extend_from_slice(&le32(v));
    }
    z.extend_from_slice(&le16(name.len() as u16));
    z.extend_from_slice(&le16(0));
    z.extend_from_slice(name);
    z.extend_from_slice(data);
    let cd_off = z.len() as u32;
    z.extend_from_slice(b"PK\x01\x02");
    for v in [20u16, 20, 0, 0, 0, 0] {
        z.extend_from_slice(&le16(v));
    }
    for v in [0u32, 5, 5] {
        z.extend_from_slice(&le32(v));
    }
    for v in [name.len() as u16, extra.len() as u16, 0, 0, 0] {
        z.extend_from_slice(&le16(v));
    }
    z.extend_from_slice(&le32(0));
    z.extend_from_slice(&le32(lho));
    z.extend_from_slice(name);
    z.extend_from_slice(extra);
    let cd_size = z.len() as u32 - cd_off;
    z.extend_from_slice(before_eocd);
    let (count, size, off) = eocd_counts.unwrap_or((1, cd_size, cd_off));
    z.extend_from_slice(b"PK\x05\x06");
    for v in [0u16, 0, count, count] {
        z.extend_from_slice(&le16(v));
    }
    z.extend_from_slice(&le32(size));
    z.extend_from_slice(&le32(off));
    z.extend_from_slice(&le16(0));
    z
}

/// A ZIP64 locator whose record offset is near `u64::MAX`: `o + 4` overflowed
/// (`src/security/archive.rs`, `list_zip`; a panic in debug builds, a wrapped range in
/// release). Found by probing the `archive` target's body with hand-made ZIP64 inputs.
#[test]
fn zip64_locator_offset_near_u64_max() {
    let mut loc = b"PK\x06\x07".to_vec();
    loc.extend_from_slice(&le32(0));
    loc.extend_from_slice(&(u64::MAX - 1).to_le_bytes());
    loc.extend_from_slice(&le32(1));
    let cd_size = 46 + 5;
    let z = zip(0, &[], Some((0xffff, cd_size, 40)), &loc);
    fuzzing::archive_listing(&z);
    let l = archive::list(&z).expect("a zip");
    assert!(
        l.issues
            .iter()
            .any(|i| matches!(i, archive::Issue::Malformed(m) if m.contains("ZIP64"))),
        "{:?}",
        l.issues
    );
}

/// A ZIP64 extra field giving a local header offset near `u64::MAX`: `lho + 4`
/// overflowed (`src/security/archive.rs`, `zip_data`).
#[test]
fn zip64_extra_local_header_offset_near_u64_max() {
    let mut extra = Vec::new();
    extra.extend_from_slice(&le16(1));
    extra.extend_from_slice(&le16(8));
    extra.extend_from_slice(&(u64::MAX - 1).to_le_bytes());
    let z = zip(0xffff_ffff, &extra, None, &[]);
    fuzzing::archive_listing(&z);
    let l = archive::list(&z).expect("a zip");
    assert_eq!(l.members.len(), 1);
    assert!(
        l.members[0].head.is_empty(),
        "no data at an impossible offset"
    );
}
