//! Signed shard reports (docs/ci.md, "Shard reports through storage you do not trust"): with
//! `SKILLGUARD_SHARD_KEY` in the environment, `scan-workspace --shard K/N` appends to its JSON
//! report a last property `"signature": "hmac-sha256:HEX"`, the HMAC-SHA-256 under that key of
//! the report's canonical bytes (the report exactly as skillguard writes it without the
//! property), and `skillguard merge` refuses every report whose signature is missing or does
//! not verify.
//!
//! The canonical bytes are the unsigned report: pretty JSON ending in `\n}\n`. The signed one
//! replaces that end by `,\n  "signature": "hmac-sha256:HEX"\n}\n`, so the signer hashes the
//! bytes as they are written (no second copy of the report) and the verifier hashes the file
//! up to the signature and that fixed end. A report re-indented or otherwise rewritten no
//! longer verifies: only the bytes skillguard wrote are vouched for.

use std::io::{self, Write};

use hmac::{KeyInit, Mac};

/// The environment variable holding the key.
pub const KEY_ENV: &str = "SKILLGUARD_SHARD_KEY";
/// What precedes the HMAC's hex digits in the `signature` property.
pub const SCHEME: &str = "hmac-sha256:";

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// The end of every unsigned report (the closing brace of the pretty-printed object and the
/// line end after it).
const UNSIGNED_END: &[u8] = b"\n}\n";
/// What the signed end starts with, up to the hex digits.
const SIGNED_HEAD: &str = ",\n  \"signature\": \"";
/// What the signed end closes with, after the hex digits.
const SIGNED_TAIL: &[u8] = b"\"\n}\n";
/// Hex digits of an HMAC-SHA-256.
const HEX_LEN: usize = 64;

/// The key in the environment: `None` when the variable is not set; an error when it is set
/// but empty or not UTF-8 (a secret that did not reach the job must not turn signing off).
pub fn key_from_env() -> Result<Option<Vec<u8>>, String> {
    match std::env::var_os(KEY_ENV) {
        None => Ok(None),
        Some(v) => match v.into_string() {
            Ok(s) if !s.is_empty() => Ok(Some(s.into_bytes())),
            Ok(_) => Err(format!(
                "{KEY_ENV} is set but empty: give the shard key, or unset the variable"
            )),
            Err(_) => Err(format!("{KEY_ENV} is not valid UTF-8")),
        },
    }
}

fn mac(key: &[u8]) -> HmacSha256 {
    // HMAC takes a key of any length.
    <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC accepts every key length")
}

/// A writer that signs the report written through it: every byte goes into the HMAC at once
/// and to `out` three bytes late, so that [`Signer::finish`] can replace the report's end by
/// the signed end.
pub struct Signer<'a> {
    out: &'a mut dyn Write,
    mac: HmacSha256,
    /// The last bytes written, not yet passed on (at most [`UNSIGNED_END`]'s length).
    held: Vec<u8>,
}

impl<'a> Signer<'a> {
    pub fn new(out: &'a mut dyn Write, key: &[u8]) -> Signer<'a> {
        Signer {
            out,
            mac: mac(key),
            held: Vec::with_capacity(2 * UNSIGNED_END.len()),
        }
    }

    /// Writes the signed end in place of the report's own; fails if what was written does
    /// not end as a report does.
    pub fn finish(self) -> io::Result<()> {
        if self.held != UNSIGNED_END {
            return Err(io::Error::other("the report to sign is not a JSON object"));
        }
        let tag = self.mac.finalize().into_bytes();
        write!(
            self.out,
            "{SIGNED_HEAD}{SCHEME}{}",
            crate::hash::hex(tag.as_slice())
        )?;
        self.out.write_all(SIGNED_TAIL)
    }
}

impl Write for Signer<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.mac.update(buf);
        self.held.extend_from_slice(buf);
        if self.held.len() > UNSIGNED_END.len() {
            let pass = self.held.len() - UNSIGNED_END.len();
            self.out.write_all(&self.held[..pass])?;
            self.held.drain(..pass);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Why a report's signature does not hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error(
        "not signed ({KEY_ENV} is set, and every shard report must end with the `signature` its `scan-workspace --shard` wrote under the same key)"
    )]
    Unsigned,
    #[error(
        "bad signature: the report was changed after it was written, or signed with another {KEY_ENV}"
    )]
    Bad,
}

/// The length of a signed report's end, from its `,` to its last line end.
const SIGNED_END_LEN: usize = SIGNED_HEAD.len() + SCHEME.len() + HEX_LEN + SIGNED_TAIL.len();

/// The HMAC a signed report's end holds, when `end` (the report's last
/// [`SIGNED_END_LEN`] bytes) is one.
fn tag_of(end: &[u8]) -> Option<[u8; 32]> {
    let head = SIGNED_HEAD.len() + SCHEME.len();
    if end.len() != SIGNED_END_LEN
        || !end.starts_with(SIGNED_HEAD.as_bytes())
        || &end[SIGNED_HEAD.len()..head] != SCHEME.as_bytes()
        || !end.ends_with(SIGNED_TAIL)
    {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut tag = [0u8; 32];
    for (i, pair) in end[head..head + HEX_LEN].chunks_exact(2).enumerate() {
        tag[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(tag)
}

/// A reader of a report that checks its signature as it is read: every byte but the last
/// [`SIGNED_END_LEN`] goes into the HMAC, so the bytes parsed are the bytes verified, and the
/// report is never held twice. [`Checked::verdict`] says what its end held.
pub struct Checked<R> {
    inner: R,
    mac: Option<HmacSha256>,
    /// The last bytes read, not yet hashed.
    held: Vec<u8>,
    /// Bytes read so far.
    pub total: u64,
}

impl<R: io::Read> Checked<R> {
    /// `key`: the shard key; `None` only tells signed reports from unsigned ones.
    pub fn new(inner: R, key: Option<&[u8]>) -> Checked<R> {
        Checked {
            inner,
            mac: key.map(mac),
            held: Vec::with_capacity(2 * SIGNED_END_LEN),
            total: 0,
        }
    }

    /// Whether what was read ends with a signature, and (with a key) whether it verifies.
    pub fn verdict(self) -> (bool, Option<Result<(), SignatureError>>) {
        let tag = tag_of(&self.held);
        let verified = self.mac.map(|mut m| {
            let tag = tag.ok_or(SignatureError::Unsigned)?;
            m.update(UNSIGNED_END);
            m.verify_slice(&tag).map_err(|_| SignatureError::Bad)
        });
        (tag.is_some(), verified)
    }
}

impl<R: io::Read> io::Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.total += n as u64;
        self.held.extend_from_slice(&buf[..n]);
        if self.held.len() > SIGNED_END_LEN {
            let pass = self.held.len() - SIGNED_END_LEN;
            if let Some(m) = &mut self.mac {
                m.update(&self.held[..pass]);
            }
            self.held.drain(..pass);
        }
        Ok(n)
    }
}

/// Checks the signature of a whole report under `key` (constant-time comparison).
pub fn verify(bytes: &[u8], key: &[u8]) -> Result<(), SignatureError> {
    let mut r = Checked::new(bytes, Some(key));
    io::copy(&mut r, &mut io::sink()).map_err(|_| SignatureError::Unsigned)?;
    r.verdict().1.unwrap_or(Err(SignatureError::Unsigned))
}

/// Does a whole report end with a signature (whatever it is worth: see [`verify`])?
pub fn is_signed(bytes: &[u8]) -> bool {
    let mut r = Checked::new(bytes, None);
    io::copy(&mut r, &mut io::sink()).is_ok() && r.verdict().0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(report: &[u8], key: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut s = Signer::new(&mut out, key);
        // Written in uneven pieces, as a serialiser does.
        for chunk in report.chunks(5) {
            s.write_all(chunk).unwrap();
        }
        s.finish().unwrap();
        out
    }

    #[test]
    fn a_signed_report_verifies_and_reads_as_json() {
        let report = b"{\n  \"version\": 1,\n  \"findings\": []\n}\n";
        let signed = sign(report, b"k");
        let v: serde_json::Value = serde_json::from_slice(&signed).unwrap();
        assert!(v["signature"].as_str().unwrap().starts_with(SCHEME));
        assert_eq!(v["version"], 1);
        assert!(is_signed(&signed));
        assert_eq!(verify(&signed, b"k"), Ok(()));
        assert_eq!(verify(&signed, b"other"), Err(SignatureError::Bad));
        assert_eq!(verify(report, b"k"), Err(SignatureError::Unsigned));
        // One byte of the signed part changed.
        let mut edited = signed.clone();
        edited[15] = b'2';
        assert_eq!(verify(&edited, b"k"), Err(SignatureError::Bad));
        // Upper-case hex digits are not ours.
        let upper = String::from_utf8(signed.clone()).unwrap().to_uppercase();
        assert_eq!(
            verify(upper.as_bytes(), b"k"),
            Err(SignatureError::Unsigned)
        );
    }

    #[test]
    fn only_a_json_object_is_signed() {
        let mut out = Vec::new();
        let mut s = Signer::new(&mut out, b"k");
        s.write_all(b"[1]\n").unwrap();
        assert!(s.finish().is_err());
    }
}
