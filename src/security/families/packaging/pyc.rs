//! Python bytecode (`.pyc`) headers and CPython's source hash.
//!
//! A `.pyc` starts with a header that ties it to its source. Since Python 3.7
//! (PEP 552) the header is 16 bytes: the 4-byte magic (a 2-byte version number
//! followed by `\r\n`), a 4-byte flags word, then either the source's mtime and size
//! (flags bit 0 clear) or an 8-byte SipHash of the source bytes (bit 0 set; bit 1
//! says whether the import system checks it). Python 3.3–3.6 used 12 bytes (magic,
//! mtime, size) and older versions 8 (magic, mtime). No decompiler: only the header
//! is read.

use siphasher::sip::{SipHasher13, SipHasher24};

/// What a `.pyc` header says about its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// Hash-based (PEP 552): the SipHash of the source; `checked` is flags bit 1.
    Hash { hash: [u8; 8], checked: bool },
    /// Timestamp-based with the source size (mod 2^32).
    Size { mtime: u32, size: u32 },
    /// Only an mtime (Python 2 and 3.0–3.2): nothing comparable after a checkout.
    MtimeOnly,
}

/// A parsed `.pyc` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The 2-byte version number (3495 for 3.11, 62211 for 2.7...).
    pub magic: u16,
    /// The whole 4-byte magic as a little-endian integer (`_RAW_MAGIC_NUMBER`).
    pub raw_magic: u32,
    pub binding: Binding,
}

impl Header {
    /// The Python version this magic number belongs to, when known.
    pub fn version(&self) -> Option<&'static str> {
        let m = self.magic;
        Some(match m {
            20121..=62211 => "2.x",
            3000..=3139 => "3.0-3.2",
            3140..=3229 => "3.2",
            3230..=3309 => "3.3-3.4",
            3310..=3379 => "3.5-3.6",
            3390..=3399 => "3.7",
            3400..=3419 => "3.8",
            3420..=3429 => "3.9",
            3430..=3449 => "3.10",
            3450..=3499 => "3.11",
            3500..=3549 => "3.12",
            3550..=3599 => "3.13",
            3600..=3649 => "3.14",
            _ => return None,
        })
    }
}

/// Why a `.pyc` header could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderError {
    /// Fewer bytes than the header needs.
    Truncated,
    /// The magic does not end in `\r\n`: not CPython bytecode.
    NotBytecode,
    /// Flags with undefined bits set (CPython rejects those).
    BadFlags(u32),
}

fn u32_le(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Parses the header of a `.pyc` file.
pub fn parse_header(b: &[u8]) -> Result<Header, HeaderError> {
    if b.len() < 4 {
        return Err(HeaderError::Truncated);
    }
    if &b[2..4] != b"\r\n" {
        return Err(HeaderError::NotBytecode);
    }
    let magic = u16::from_le_bytes([b[0], b[1]]);
    let raw_magic = u32_le(b, 0);
    let need = |n: usize| {
        if b.len() < n {
            Err(HeaderError::Truncated)
        } else {
            Ok(())
        }
    };
    let binding = if (3390..4000).contains(&magic) {
        need(16)?;
        let flags = u32_le(b, 4);
        if flags & !0b11 != 0 {
            return Err(HeaderError::BadFlags(flags));
        }
        if flags & 1 == 1 {
            let mut hash = [0u8; 8];
            hash.copy_from_slice(&b[8..16]);
            Binding::Hash {
                hash,
                checked: flags & 2 == 2,
            }
        } else {
            Binding::Size {
                mtime: u32_le(b, 8),
                size: u32_le(b, 12),
            }
        }
    } else if (3230..3390).contains(&magic) {
        need(12)?;
        Binding::Size {
            mtime: u32_le(b, 4),
            size: u32_le(b, 8),
        }
    } else {
        need(8)?;
        Binding::MtimeOnly
    };
    Ok(Header {
        magic,
        raw_magic,
        binding,
    })
}

/// `importlib.util.source_hash(source)` as the interpreter that wrote the header
/// computes it: `_Py_KeyedHash(_RAW_MAGIC_NUMBER, source)`, SipHash with
/// k0 = the raw magic and k1 = 0, little-endian bytes. CPython 3.11 switched the
/// keyed hash from SipHash-2-4 to SipHash-1-3; both are returned (13 first) so a
/// caller can accept either without guessing at the exact magic of the switch.
pub fn source_hashes(raw_magic: u32, source: &[u8]) -> [[u8; 8]; 2] {
    let k0 = u64::from(raw_magic);
    [
        SipHasher13::new_with_keys(k0, 0).hash(source).to_le_bytes(),
        SipHasher24::new_with_keys(k0, 0).hash(source).to_le_bytes(),
    ]
}

/// The source a `.pyc` path belongs to, as a path inside the skill:
/// `pkg/__pycache__/mod.cpython-311.opt-1.pyc` → `pkg/mod.py`, `pkg/mod.pyc` → `pkg/mod.py`.
/// `None` when the path is not a `.pyc`/`.pyo`.
pub fn source_path(pyc: &str) -> Option<String> {
    let (dir, name) = match pyc.rsplit_once('/') {
        Some((d, n)) => (Some(d), n),
        None => (None, pyc),
    };
    let lower = name.to_ascii_lowercase();
    if !(lower.ends_with(".pyc") || lower.ends_with(".pyo")) || name.len() <= 4 {
        return None;
    }
    let stem = &name[..name.len() - 4];
    let (dir, module) = match dir {
        Some(d) if d == "__pycache__" || d.ends_with("/__pycache__") => {
            let parent = d.strip_suffix("__pycache__").unwrap_or("");
            let parent = parent.strip_suffix('/').unwrap_or(parent);
            // Module names contain no dot: everything after the first is the cache tag.
            let module = stem.split('.').next().unwrap_or(stem);
            (parent, module)
        }
        Some(d) => (d, stem),
        None => ("", stem),
    };
    if module.is_empty() {
        return None;
    }
    Some(if dir.is_empty() {
        format!("{module}.py")
    } else {
        format!("{dir}/{module}.py")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(magic: u16, flags: u32, tail: [u8; 8]) -> Vec<u8> {
        let mut v = magic.to_le_bytes().to_vec();
        v.extend_from_slice(b"\r\n");
        v.extend_from_slice(&flags.to_le_bytes());
        v.extend_from_slice(&tail);
        v.extend_from_slice(b"\xe3rest-of-code-object");
        v
    }

    fn hex(b: [u8; 8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// Vectors from `importlib.util.source_hash` on each interpreter.
    #[test]
    fn source_hash_matches_cpython() {
        let cases: &[(u32, &[u8], &str)] = &[
            // 3.11.7, magic a70d0d0a
            (0x0a0d_0da7, b"print(1)\n", "da812d7f407a3059"),
            (0x0a0d_0da7, b"", "738d9cd5d5e87f73"),
            // 3.12.1, magic cb0d0d0a
            (0x0a0d_0dcb, b"print(1)\n", "bf71f361a5f8cd69"),
            (0x0a0d_0dcb, b"", "baf18eedc9387a25"),
            // 3.13.0, magic f30d0d0a
            (0x0a0d_0df3, b"print(1)\n", "5a90791f83be4635"),
            (0x0a0d_0df3, b"", "27ec6d312f93b814"),
        ];
        for (magic, src, want) in cases {
            assert_eq!(hex(source_hashes(*magic, src)[0]), *want, "magic {magic:x}");
        }
        // 3.7-3.10 used SipHash-2-4.
        let old: &[(u32, &[u8], &str)] = &[
            (0x0a0d_0d6f, b"print(1)\n", "28765e52ed782214"),
            (0x0a0d_0d6f, b"", "8cc0cd2525e7fd27"),
            (0x0a0d_0d42, b"print(1)\n", "6d8a2a3c3b0a84c0"),
            (0x0a0d_0d61, b"", "ac0bb7c83e5b1c5f"),
        ];
        for (magic, src, want) in old {
            assert_eq!(hex(source_hashes(*magic, src)[1]), *want, "magic {magic:x}");
        }
    }

    #[test]
    fn siphash24_reference_vector() {
        // The SipHash paper's vector: key 00..0f, message 00..0e.
        let k0 = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]);
        let k1 = u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]);
        let msg: Vec<u8> = (0u8..15).collect();
        assert_eq!(
            SipHasher24::new_with_keys(k0, k1).hash(&msg),
            0xa129_ca61_49be_45e5
        );
    }

    #[test]
    fn headers() {
        let h = parse_header(&header(3495, 0, [1, 0, 0, 0, 42, 0, 0, 0])).unwrap();
        assert_eq!(h.version(), Some("3.11"));
        assert_eq!(h.raw_magic, 0x0a0d_0da7);
        assert_eq!(h.binding, Binding::Size { mtime: 1, size: 42 });
        let h = parse_header(&header(3531, 3, [9; 8])).unwrap();
        assert_eq!(
            h.binding,
            Binding::Hash {
                hash: [9; 8],
                checked: true
            }
        );
        let h = parse_header(&header(3531, 1, [9; 8])).unwrap();
        assert!(matches!(h.binding, Binding::Hash { checked: false, .. }));
        // 3.6: 12 bytes, size at 8.
        let mut v = 3379u16.to_le_bytes().to_vec();
        v.extend_from_slice(b"\r\n\x01\x00\x00\x00\x07\x00\x00\x00");
        assert_eq!(
            parse_header(&v).unwrap().binding,
            Binding::Size { mtime: 1, size: 7 }
        );
        // 2.7: mtime only.
        let mut v = 62211u16.to_le_bytes().to_vec();
        v.extend_from_slice(b"\r\n\x01\x00\x00\x00");
        assert_eq!(parse_header(&v).unwrap().binding, Binding::MtimeOnly);
        assert_eq!(parse_header(&v).unwrap().version(), Some("2.x"));
    }

    #[test]
    fn malformed_headers() {
        assert_eq!(parse_header(b""), Err(HeaderError::Truncated));
        assert_eq!(parse_header(b"\xa7\x0d"), Err(HeaderError::Truncated));
        assert_eq!(
            parse_header(b"PK\x03\x04...."),
            Err(HeaderError::NotBytecode)
        );
        let h = header(3495, 0, [0; 8]);
        assert_eq!(parse_header(&h[..15]), Err(HeaderError::Truncated));
        assert_eq!(
            parse_header(&header(3495, 4, [0; 8])),
            Err(HeaderError::BadFlags(4))
        );
    }

    #[test]
    fn source_paths() {
        assert_eq!(
            source_path("scripts/__pycache__/run.cpython-311.pyc").as_deref(),
            Some("scripts/run.py")
        );
        assert_eq!(
            source_path("__pycache__/run.cpython-312.opt-2.pyc").as_deref(),
            Some("run.py")
        );
        assert_eq!(source_path("lib/util.pyc").as_deref(), Some("lib/util.py"));
        assert_eq!(source_path("util.PYO").as_deref(), Some("util.py"));
        assert_eq!(source_path("util.py"), None);
        assert_eq!(source_path(".pyc"), None);
    }
}
