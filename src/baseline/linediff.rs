//! PLACEHOLDER — replaced by the real module (line hashes and line diff counts).

pub const LINE_HASH_VERSION: &str = "lines-v1";

pub fn line_hashes(bytes: &[u8]) -> Vec<u32> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    body.split(|b| *b == b'\n')
        .map(|l| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            let mut h: u32 = 2166136261;
            for b in l {
                h = (h ^ *b as u32).wrapping_mul(16777619);
            }
            h
        })
        .collect()
}

pub fn has_crlf(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"\r\n").is_some()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineDelta {
    pub added: usize,
    pub removed: usize,
    pub exact: bool,
}

pub fn diff_counts(old: &[u32], new: &[u32]) -> LineDelta {
    let p = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    LineDelta {
        added: new.len() - p,
        removed: old.len() - p,
        exact: false,
    }
}

pub fn encode(hashes: &[u32]) -> Vec<u8> {
    hashes.iter().flat_map(|h| h.to_le_bytes()).collect()
}

pub fn decode(bytes: &[u8]) -> Option<Vec<u32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}
