//! Bounded, in-memory listing of the archives a skill bundles (zip, tar, gzip and
//! tar.gz). Nothing is extracted to disk and nothing is decompressed in full: zip
//! listings come from the central directory (sizes are the declared ones), member
//! heads are inflated a few hundred bytes at a time, and gzip streams (which must be
//! decompressed to list an inner tar) are read through a byte budget. Every loop is
//! bounded by [`MAX_ENTRIES`], [`MAX_MEMBERS`] and [`MAX_NOTABLE`], [`MAX_DEPTH`] and
//! [`MAX_INFLATE`]: entries and bytes, never time, so the same archive gives the same
//! listing on every machine and every run. A listing stopped at a bound says so
//! ([`Issue::Cut`], with what it knows of what was left); malformed input becomes an
//! [`Issue`], never a panic.

use std::collections::HashMap;
use std::io::{self, Read};

use flate2::read::{DeflateDecoder, MultiGzDecoder};

/// Members kept per archive (nested archives included). Past this bound the listing goes
/// on (every entry is still read and judged), but only members the caller's `keep` test
/// marks as notable are kept, up to [`MAX_NOTABLE`] more; the others are only counted
/// ([`Listing::unlisted`]). Padding an archive therefore cannot push a dangerous member
/// out of sight.
pub const MAX_MEMBERS: usize = 10_000;
/// Notable members kept past [`MAX_MEMBERS`] before the listing stops.
pub const MAX_NOTABLE: usize = 10_000;
/// Total declared uncompressed size above which an archive is a bomb.
pub const MAX_DECLARED: u64 = 512 << 20;
/// Archives inside archives: deeper nesting is reported and not followed.
pub const MAX_DEPTH: u8 = 3;
/// Bytes actually decompressed per top-level archive (heads, gzip streams, nested archives).
pub const MAX_INFLATE: u64 = 64 << 20;
/// Entries read per top-level archive (members and tar metadata entries, nested archives
/// included): the bound on the listing's work, whatever the entries hold.
pub const MAX_ENTRIES: u64 = 100_000;
/// Bytes of each member kept for magic-number checks (covers the tar magic at 257).
pub const HEAD: usize = 264;
/// Longest symlink target read from a member.
const MAX_LINK: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberKind {
    File,
    Dir,
    Symlink,
    Hardlink,
    /// Device, FIFO or another special entry.
    Other,
}

#[derive(Debug, Clone)]
pub struct Member {
    /// The name as stored (lossy UTF-8, not sanitised).
    pub name: String,
    pub kind: MemberKind,
    pub link_target: Option<String>,
    /// Declared uncompressed size.
    pub size: u64,
    /// Unix mode bits, when the archive records them.
    pub mode: Option<u32>,
    /// The first bytes of the content, when cheaply readable (empty otherwise).
    pub head: Vec<u8>,
    /// The listing of this member when it is itself an archive.
    pub nested: Option<Box<Listing>>,
}

/// The bound a listing stopped at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bound {
    /// [`MAX_ENTRIES`] entries read.
    Entries,
    /// [`MAX_NOTABLE`] notable members kept past the first [`MAX_MEMBERS`].
    Notable,
    /// [`MAX_INFLATE`] bytes decompressed.
    Inflate,
}

impl Bound {
    /// The bound and its value, as a message names it.
    pub fn describe(self) -> String {
        match self {
            Bound::Entries => format!("{MAX_ENTRIES} entries read"),
            Bound::Notable => {
                format!("{MAX_NOTABLE} notable members kept past the first {MAX_MEMBERS}")
            }
            Bound::Inflate => format!("{} MiB decompressed", MAX_INFLATE >> 20),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Bound::Entries => "archive-entries",
            Bound::Notable => "archive-notable-members",
            Bound::Inflate => "archive-inflate",
        }
    }
}

/// Why a listing is incomplete or suspicious.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Issue {
    /// The listing (or a nested archive's) stopped at a bound; what was left unread, when
    /// the archive says (members the zip directory declares, bytes the gzip trailer or a
    /// member header declares).
    Cut {
        bound: Bound,
        unread_members: Option<u64>,
        unread_bytes: Option<u64>,
    },
    /// An archive member nested deeper than [`MAX_DEPTH`] (its name).
    TooDeep(String),
    /// The structure could not be parsed (what went wrong).
    Malformed(String),
    /// A zip member whose name differs between the central directory and its local header
    /// or its Info-ZIP Unicode-path field: extractors differ on the file they write.
    NameDisagrees {
        central: String,
        other: String,
        /// `local header` or `Unicode-path field`.
        source: &'static str,
    },
    /// A zip member named by a local header that the (complete) central directory does not
    /// list: streaming extractors write it, directory readers and reviewers never see it.
    LocalOnly(String),
}

#[derive(Debug, Clone)]
pub struct Listing {
    /// `zip`, `tar`, `gzip` or `tar.gz`.
    pub format: &'static str,
    pub members: Vec<Member>,
    /// Sum of the declared uncompressed sizes (gzip: the larger of ISIZE and what was inflated).
    pub declared_total: u64,
    /// Size of the archive itself.
    pub packed: u64,
    /// Nesting level (0 for the file in the skill).
    pub depth: u8,
    pub issues: Vec<Issue>,
    /// Members read and judged past [`MAX_MEMBERS`] but not kept (none was notable).
    pub unlisted: u64,
}

/// Records a cut at `bound` in `l` (one issue per bound, the unread amounts added up).
fn cut(issues: &mut Vec<Issue>, bound: Bound, members: Option<u64>, bytes: Option<u64>) {
    for i in issues.iter_mut() {
        if let Issue::Cut {
            bound: b,
            unread_members,
            unread_bytes,
        } = i
            && *b == bound
        {
            let add = |x: &mut Option<u64>, y: Option<u64>| {
                *x = match (*x, y) {
                    (Some(a), Some(b)) => Some(a.saturating_add(b)),
                    (a, b) => a.or(b),
                }
            };
            add(unread_members, members);
            add(unread_bytes, bytes);
            return;
        }
    }
    issues.push(Issue::Cut {
        bound,
        unread_members: members,
        unread_bytes: bytes,
    });
}

impl Listing {
    fn new(format: &'static str, packed: usize, depth: u8) -> Self {
        Listing {
            format,
            members: Vec::new(),
            declared_total: 0,
            packed: packed as u64,
            depth,
            issues: Vec::new(),
            unlisted: 0,
        }
    }

    /// Declared uncompressed size over packed size (0 when the archive is empty).
    pub fn ratio(&self) -> u64 {
        self.declared_total / self.packed.max(1)
    }

    /// Members of this listing and of every listing nested in it, kept or only counted.
    pub fn total_members(&self) -> u64 {
        self.members.iter().fold(self.unlisted, |n, m| {
            n.saturating_add(1)
                .saturating_add(m.nested.as_ref().map_or(0, |l| l.total_members()))
        })
    }
}

/// Which members past [`MAX_MEMBERS`] are worth keeping (the caller's notion of notable).
pub type Keep = fn(&Member) -> bool;

/// Limits shared by a top-level archive and everything nested in it.
struct Budget {
    inflate_left: u64,
    entries_left: u64,
    members_left: usize,
    notable_left: usize,
    keep: Keep,
}

impl Budget {
    fn new(keep: Keep) -> Self {
        Budget {
            inflate_left: MAX_INFLATE,
            entries_left: MAX_ENTRIES,
            members_left: MAX_MEMBERS,
            notable_left: MAX_NOTABLE,
            keep,
        }
    }

    /// Counts one more entry read; `false` when [`MAX_ENTRIES`] were read already.
    fn entry(&mut self) -> bool {
        if self.entries_left == 0 {
            return false;
        }
        self.entries_left -= 1;
        true
    }

    /// Adds a member that was read in full to `l`: kept while under [`MAX_MEMBERS`], then
    /// kept only when notable (or itself an archive), otherwise counted. `false` when the
    /// notable bound is reached and the listing must stop (the caller records the cut).
    fn admit(&mut self, l: &mut Listing, m: Member) -> bool {
        if self.members_left > 0 {
            self.members_left -= 1;
            l.members.push(m);
            return true;
        }
        if !(self.keep)(&m) && m.nested.is_none() {
            l.unlisted += 1;
            return true;
        }
        if self.notable_left == 0 {
            return false;
        }
        self.notable_left -= 1;
        l.members.push(m);
        true
    }
}

/// The archive format of `bytes` by magic number (and, for a tar without the
/// `ustar` magic, by a valid first header checksum).
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        Some("zip")
    } else if bytes.starts_with(&[0x1f, 0x8b]) {
        Some("gzip")
    } else if is_tar_header(bytes) {
        Some("tar")
    } else {
        None
    }
}

fn is_tar_header(b: &[u8]) -> bool {
    if b.len() < 512 {
        return false;
    }
    let h = &b[..512];
    (&h[257..262] == b"ustar" || h[0] != 0) && checksum_ok(h)
}

/// Lists an archive; `None` when `bytes` is none of the formats listed here. Past
/// [`MAX_MEMBERS`] no member is kept (see [`list_with`]).
pub fn list(bytes: &[u8]) -> Option<Listing> {
    list_with(bytes, |_| false)
}

/// Lists an archive, keeping the members `keep` marks as notable past [`MAX_MEMBERS`].
pub fn list_with(bytes: &[u8], keep: Keep) -> Option<Listing> {
    list_at(bytes, 0, &mut Budget::new(keep))
}

fn list_at(bytes: &[u8], depth: u8, budget: &mut Budget) -> Option<Listing> {
    Some(match sniff(bytes)? {
        "zip" => list_zip(bytes, depth, budget),
        "gzip" => list_gzip(bytes, depth, budget),
        _ => {
            let mut l = Listing::new("tar", bytes.len(), depth);
            let mut r = bytes;
            list_tar(&mut r, &mut l, budget);
            l
        }
    })
}

// ---------------------------------------------------------------------------
// zip
// ---------------------------------------------------------------------------

fn le16(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 2)
        .map(|s| u64::from(u16::from_le_bytes([s[0], s[1]])))
}

fn le32(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 4)
        .map(|s| u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]])))
}

fn le64(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 8)
        .map(|s| u64::from_le_bytes(s.try_into().unwrap_or([0; 8])))
}

/// The end-of-central-directory record: the last signature in the final 64 KiB + 22 bytes.
fn find_eocd(b: &[u8]) -> Option<usize> {
    if b.len() < 22 {
        return None;
    }
    let lowest = b.len().saturating_sub(22 + 0xffff);
    (lowest..=b.len() - 22)
        .rev()
        .find(|&i| b[i..i + 4] == *b"PK\x05\x06")
}

fn list_zip(b: &[u8], depth: u8, budget: &mut Budget) -> Listing {
    let mut l = Listing::new("zip", b.len(), depth);
    let mut known = HashMap::new();
    let complete = read_central(b, depth, budget, &mut l, &mut known);
    if !l.issues.iter().any(|i| matches!(i, Issue::Cut { .. })) {
        walk_local(b, &known, complete, depth, budget, &mut l);
    }
    l
}

/// Reads the central directory into `l`, recording in `known` the offset of each member's
/// local header and its compressed size. `true` when the directory was read whole.
fn read_central(
    b: &[u8],
    depth: u8,
    budget: &mut Budget,
    l: &mut Listing,
    known: &mut HashMap<usize, u64>,
) -> bool {
    let Some(eocd) = find_eocd(b) else {
        l.issues.push(Issue::Malformed(
            "no end-of-central-directory record (truncated or not a zip)".into(),
        ));
        return false;
    };
    let (mut count, mut cd_size, mut cd_off) = (
        le16(b, eocd + 10).unwrap_or(0),
        le32(b, eocd + 12).unwrap_or(0),
        le32(b, eocd + 16).unwrap_or(0),
    );
    let mut end = eocd;
    // Whether `count` is the real number of entries (not a 16-bit field at its maximum).
    let mut count_exact = true;
    if count == 0xffff || cd_size == 0xffff_ffff || cd_off == 0xffff_ffff {
        // ZIP64: the locator sits right before the classic record.
        let z64 = eocd
            .checked_sub(20)
            .filter(|&loc| b[loc..loc + 4] == *b"PK\x06\x07")
            .and_then(|loc| le64(b, loc + 8))
            .and_then(|o| usize::try_from(o).ok())
            .filter(|&o| {
                o.checked_add(4).and_then(|e| b.get(o..e)) == Some(b"PK\x06\x06".as_slice())
            });
        match z64.and_then(|o| Some((o, le64(b, o + 32)?, le64(b, o + 40)?, le64(b, o + 48)?))) {
            Some((o, n, s, off)) => {
                (count, cd_size, cd_off, end) = (n, s, off, o);
            }
            // Exactly 65,535 entries (or more, written by a tool that skips ZIP64 when the
            // offsets fit): the classic sizes are valid, so read the directory to its end.
            None if cd_size != 0xffff_ffff && cd_off != 0xffff_ffff => {
                count = u64::MAX;
                count_exact = false;
            }
            None => {
                l.issues.push(Issue::Malformed(
                    "ZIP64 record missing or out of bounds".into(),
                ));
                return false;
            }
        }
    }
    // The central directory ends where the end record starts; data prepended to the
    // archive (a self-extractor stub) shifts every offset by the same amount.
    let Some(cd_start) = (end as u64).checked_sub(cd_size) else {
        l.issues.push(Issue::Malformed(
            "central directory larger than the file".into(),
        ));
        return false;
    };
    let shift = cd_start.saturating_sub(cd_off);
    let mut p = cd_start as usize;
    let cd_end = end;
    let mut n = 0u64;
    let mut complete = true;
    while p < cd_end && n < count {
        if !budget.entry() {
            let left = count_exact.then(|| count - n);
            cut(&mut l.issues, Bound::Entries, left, None);
            break;
        }
        if b.get(p..p + 4) != Some(b"PK\x01\x02".as_slice()) || p + 46 > b.len() {
            l.issues.push(Issue::Malformed(format!(
                "central directory entry #{} is damaged",
                n + 1
            )));
            complete = false;
            break;
        }
        let made_by = le16(b, p + 4).unwrap_or(0);
        let flags = le16(b, p + 8).unwrap_or(0);
        let method = le16(b, p + 10).unwrap_or(0);
        let mut csize = le32(b, p + 20).unwrap_or(0);
        let mut usize_ = le32(b, p + 24).unwrap_or(0);
        let name_len = le16(b, p + 28).unwrap_or(0) as usize;
        let extra_len = le16(b, p + 30).unwrap_or(0) as usize;
        let comment_len = le16(b, p + 32).unwrap_or(0) as usize;
        let attrs = le32(b, p + 38).unwrap_or(0);
        let mut lho = le32(b, p + 42).unwrap_or(0);
        let name_at = p + 46;
        let Some(name) = b.get(name_at..name_at + name_len) else {
            l.issues.push(Issue::Malformed(format!(
                "central directory entry #{} runs past the end",
                n + 1
            )));
            complete = false;
            break;
        };
        let extra = b
            .get(name_at + name_len..name_at + name_len + extra_len)
            .unwrap_or(&[]);
        zip64_extra(extra, &mut usize_, &mut csize, &mut lho);
        let name = String::from_utf8_lossy(name).into_owned();
        if let Ok(at) = usize::try_from(lho.saturating_add(shift)) {
            known.entry(at).or_insert(csize);
        }
        for (source, other) in [
            ("Unicode-path field", unicode_path(extra)),
            ("local header", local_name(b, lho.saturating_add(shift))),
        ] {
            if let Some(other) = other.filter(|o| *o != name)
                && l.issues.len() < 64
            {
                l.issues.push(Issue::NameDisagrees {
                    central: name.clone(),
                    other,
                    source,
                });
            }
        }
        let unix = made_by >> 8 == 3;
        let mode = (unix && attrs >> 16 != 0).then_some((attrs >> 16) as u32);
        let kind = match mode.map(|m| m & 0o170_000) {
            Some(0o120_000) => MemberKind::Symlink,
            Some(0o040_000) => MemberKind::Dir,
            Some(0o100_000) | Some(0) | None if name.ends_with('/') => MemberKind::Dir,
            Some(0o100_000) | Some(0) | None => MemberKind::File,
            Some(_) => MemberKind::Other,
        };
        let mut m = Member {
            name,
            kind,
            link_target: None,
            size: usize_,
            mode,
            head: Vec::new(),
            nested: None,
        };
        l.declared_total = l.declared_total.saturating_add(usize_);
        let encrypted = flags & 1 == 1;
        if !encrypted && matches!(kind, MemberKind::File | MemberKind::Symlink) {
            let data = zip_data(b, lho.saturating_add(shift), csize);
            let want = if kind == MemberKind::Symlink {
                MAX_LINK
            } else {
                HEAD
            };
            if let Some(data) = data {
                let head = read_member(data, method, want, budget);
                if kind == MemberKind::Symlink {
                    m.link_target = head.map(|h| String::from_utf8_lossy(&h).into_owned());
                } else if let Some(h) = head {
                    m.head = h;
                    nest_zip(&mut m, data, method, depth, budget, &mut l.issues);
                }
            }
        }
        n += 1;
        p = name_at + name_len + extra_len + comment_len;
        if !budget.admit(l, m) {
            // The member that did not fit is counted as unread with the rest.
            let left = count_exact.then(|| count - n + 1);
            cut(&mut l.issues, Bound::Notable, left, None);
            break;
        }
    }
    if count_exact && n < count && l.issues.is_empty() {
        l.issues.push(Issue::Malformed(format!(
            "the end record declares {count} member(s) but the central directory holds {n}"
        )));
        complete = false;
    }
    complete
}

/// The signatures that may follow a member's data: the next local header, the central
/// directory, the end records and a data descriptor.
fn zip_signature(b: &[u8], at: usize) -> Option<[u8; 4]> {
    let s: [u8; 4] = b.get(at..at.checked_add(4)?)?.try_into().ok()?;
    matches!(
        &s,
        b"PK\x03\x04" | b"PK\x01\x02" | b"PK\x05\x06" | b"PK\x06\x06" | b"PK\x07\x08"
    )
    .then_some(s)
}

/// Where the next record starts after a member whose data ends at `end`: a data descriptor
/// (12 to 24 bytes, with or without its signature) is skipped when a signature follows it.
fn after_descriptor(b: &[u8], end: usize) -> usize {
    match zip_signature(b, end) {
        Some(s) if s != *b"PK\x07\x08" => end,
        _ => [12, 16, 20, 24]
            .into_iter()
            .map(|d| end.saturating_add(d))
            .find(|&p| zip_signature(b, p).is_some_and(|s| s != *b"PK\x07\x08"))
            .unwrap_or(end),
    }
}

/// Reads the local headers in file order, as streaming extractors (bsdtar reading a pipe,
/// Java's `ZipInputStream`) do. A member the central directory lists is skipped with the
/// directory's size; any other is listed: when the directory was read whole (`complete`)
/// it is a member only streaming extractors write ([`Issue::LocalOnly`]), otherwise it is
/// how a zip whose directory is cut or missing is listed at all. Each header is one
/// [`Budget::entry`] and every byte is passed at most once.
fn walk_local(
    b: &[u8],
    known: &HashMap<usize, u64>,
    complete: bool,
    depth: u8,
    budget: &mut Budget,
    l: &mut Listing,
) {
    let mut p = 0usize;
    while b.get(p..p.saturating_add(4)) == Some(b"PK\x03\x04".as_slice()) {
        let (Some(flags), Some(method), Some(mut csize), Some(mut size), Some(nl), Some(el)) = (
            le16(b, p + 6),
            le16(b, p + 8),
            le32(b, p + 18),
            le32(b, p + 22),
            le16(b, p + 26),
            le16(b, p + 28),
        ) else {
            break;
        };
        let name_at = p + 30;
        let data_at = name_at + nl as usize + el as usize;
        let (Some(name), Some(extra)) = (
            b.get(name_at..name_at + nl as usize),
            b.get(name_at + nl as usize..data_at),
        ) else {
            if !complete {
                l.issues.push(Issue::Malformed(format!(
                    "the local header at offset {p} runs past the end"
                )));
            }
            break;
        };
        let end = if let Some(&c) = known.get(&p) {
            data_at.saturating_add(usize::try_from(c).unwrap_or(usize::MAX))
        } else {
            if !budget.entry() {
                cut(&mut l.issues, Bound::Entries, None, None);
                return;
            }
            let mut lho = 0;
            zip64_extra(extra, &mut size, &mut csize, &mut lho);
            let end = if flags & 8 != 0 && csize == 0 {
                // Sizes in a trailing descriptor: the data runs to the next signature.
                memchr::memmem::find_iter(b.get(data_at..).unwrap_or(&[]), b"PK")
                    .map(|i| data_at + i)
                    .find(|&i| zip_signature(b, i).is_some())
                    .unwrap_or(b.len())
            } else {
                data_at.saturating_add(usize::try_from(csize).unwrap_or(usize::MAX))
            };
            let name = String::from_utf8_lossy(name).into_owned();
            if let Some(other) = unicode_path(extra).filter(|o| *o != name)
                && l.issues.len() < 64
            {
                l.issues.push(Issue::NameDisagrees {
                    central: name.clone(),
                    other,
                    source: "Unicode-path field",
                });
            }
            if complete && l.issues.len() < 64 {
                l.issues.push(Issue::LocalOnly(name.clone()));
            }
            let kind = if name.ends_with('/') {
                MemberKind::Dir
            } else {
                MemberKind::File
            };
            let mut m = Member {
                name,
                kind,
                link_target: None,
                size,
                mode: None,
                head: Vec::new(),
                nested: None,
            };
            l.declared_total = l.declared_total.saturating_add(size);
            let data = &b[data_at.min(b.len())..end.min(b.len())];
            if flags & 1 == 0
                && kind == MemberKind::File
                && let Some(h) = read_member(data, method, HEAD, budget)
            {
                m.head = h;
                nest_zip(&mut m, data, method, depth, budget, &mut l.issues);
            }
            if !budget.admit(l, m) {
                cut(&mut l.issues, Bound::Notable, None, None);
                return;
            }
            end
        };
        if end > b.len() {
            break;
        }
        p = if flags & 8 != 0 {
            after_descriptor(b, end)
        } else {
            end
        };
    }
}

/// The name of an Info-ZIP Unicode-path extra field (0x7075: version, CRC-32 of the header
/// name, the UTF-8 name), which unzip and 7-Zip use instead of the header's name.
fn unicode_path(mut extra: &[u8]) -> Option<String> {
    while extra.len() >= 4 {
        let id = u16::from_le_bytes([extra[0], extra[1]]);
        let size = usize::from(u16::from_le_bytes([extra[2], extra[3]]));
        let data = extra.get(4..4 + size)?;
        if id == 0x7075 && size >= 5 && data[0] == 1 {
            return Some(String::from_utf8_lossy(&data[5..]).into_owned());
        }
        extra = &extra[4 + size..];
    }
    None
}

/// The name in the local header at `lho` (what streaming extractors read), if one is there.
fn local_name(b: &[u8], lho: u64) -> Option<String> {
    let at = usize::try_from(lho).ok()?;
    if b.get(at..at.checked_add(4)?) != Some(b"PK\x03\x04".as_slice()) {
        return None;
    }
    let len = le16(b, at + 26)? as usize;
    let name = b.get(at + 30..(at + 30).checked_add(len)?)?;
    Some(String::from_utf8_lossy(name).into_owned())
}

/// Replaces the 0xFFFFFFFF placeholders by the ZIP64 extra field's values.
fn zip64_extra(mut extra: &[u8], usize_: &mut u64, csize: &mut u64, lho: &mut u64) {
    while extra.len() >= 4 {
        let id = le16(extra, 0).unwrap_or(0);
        let len = le16(extra, 2).unwrap_or(0) as usize;
        let Some(body) = extra.get(4..4 + len) else {
            return;
        };
        if id == 1 {
            let mut at = 0;
            for field in [usize_, csize, lho] {
                if *field == 0xffff_ffff {
                    if let Some(v) = le64(body, at) {
                        *field = v;
                    }
                    at += 8;
                }
            }
            return;
        }
        extra = &extra[4 + len..];
    }
}

/// The compressed bytes of the member whose local header is at `lho`.
fn zip_data(b: &[u8], lho: u64, csize: u64) -> Option<&[u8]> {
    let lho = usize::try_from(lho).ok()?;
    if b.get(lho..lho.checked_add(4)?)? != b"PK\x03\x04" {
        return None;
    }
    let start = lho + 30 + le16(b, lho + 26)? as usize + le16(b, lho + 28)? as usize;
    let end = start
        .saturating_add(usize::try_from(csize).ok()?)
        .min(b.len());
    b.get(start..end)
}

/// The first `want` bytes of a stored or deflated member (`None` for other methods).
fn read_member(data: &[u8], method: u64, want: usize, budget: &mut Budget) -> Option<Vec<u8>> {
    match method {
        0 => Some(data[..data.len().min(want)].to_vec()),
        8 => {
            let want = (want as u64).min(budget.inflate_left);
            let mut out = Vec::new();
            let r = DeflateDecoder::new(data).take(want).read_to_end(&mut out);
            budget.inflate_left = budget.inflate_left.saturating_sub(out.len() as u64);
            r.ok().map(|_| out)
        }
        _ => None,
    }
}

fn looks_like_archive(name: &str, head: &[u8]) -> bool {
    let lower = name.to_ascii_lowercase();
    sniff(head).is_some()
        || [".zip", ".tar", ".tgz", ".gz", ".jar", ".whl", ".skill"]
            .iter()
            .any(|e| lower.ends_with(e))
            && (head.starts_with(b"PK") || head.starts_with(&[0x1f, 0x8b]) || head.len() >= 257)
}

/// Lists a zip member that is itself an archive (within depth and budget).
fn nest_zip(
    m: &mut Member,
    data: &[u8],
    method: u64,
    depth: u8,
    budget: &mut Budget,
    issues: &mut Vec<Issue>,
) {
    if !looks_like_archive(&m.name, &m.head) {
        return;
    }
    if depth + 1 > MAX_DEPTH {
        issues.push(Issue::TooDeep(m.name.clone()));
        return;
    }
    let inner: Vec<u8>;
    let bytes: &[u8] = match method {
        0 => data,
        8 => {
            if m.size > budget.inflate_left {
                cut(issues, Bound::Inflate, None, Some(m.size));
                return;
            }
            let mut out = Vec::new();
            let r = DeflateDecoder::new(data)
                .take(budget.inflate_left)
                .read_to_end(&mut out);
            budget.inflate_left = budget.inflate_left.saturating_sub(out.len() as u64);
            if r.is_err() {
                return;
            }
            inner = out;
            &inner
        }
        _ => return,
    };
    m.nested = list_at(bytes, depth + 1, budget).map(Box::new);
}

// ---------------------------------------------------------------------------
// tar
// ---------------------------------------------------------------------------

fn checksum_ok(h: &[u8]) -> bool {
    let Some(want) = octal(&h[148..156]) else {
        return false;
    };
    let sum: u64 = h
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if (148..156).contains(&i) {
                u64::from(b' ')
            } else {
                u64::from(c)
            }
        })
        .sum();
    sum == want
}

/// An octal field (NUL/space padded), or GNU base-256 when the high bit is set.
fn octal(f: &[u8]) -> Option<u64> {
    if f.first().is_some_and(|c| c & 0x80 != 0) {
        let mut v: u64 = u64::from(f[0] & 0x7f);
        for &c in &f[1..] {
            v = v.checked_mul(256)?.checked_add(u64::from(c))?;
        }
        return Some(v);
    }
    let s: Vec<u8> = f
        .iter()
        .copied()
        .skip_while(|c| *c == b' ')
        .take_while(|c| (b'0'..=b'7').contains(c))
        .collect();
    if s.is_empty() {
        return f.iter().all(|c| *c == 0 || *c == b' ').then_some(0);
    }
    s.iter().try_fold(0u64, |v, c| {
        v.checked_mul(8)?.checked_add(u64::from(c - b'0'))
    })
}

fn cstr(f: &[u8]) -> String {
    let end = f.iter().position(|c| *c == 0).unwrap_or(f.len());
    String::from_utf8_lossy(&f[..end]).into_owned()
}

/// Reads exactly `buf.len()` bytes; `Ok(false)` on a clean end of input before any byte.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<bool> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) if got == 0 => return Ok(false),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

fn skip(r: &mut dyn Read, n: u64) -> io::Result<()> {
    let mut buf = [0u8; 16 * 1024];
    let mut left = n;
    while left > 0 {
        let k = (left as usize).min(buf.len());
        if !read_full(r, &mut buf[..k])? {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        left -= k as u64;
    }
    Ok(())
}

/// Pax records: `LEN key=value\n`.
fn pax(data: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let Some(sp) = rest.iter().position(|c| *c == b' ') else {
            break;
        };
        let Some(len) = std::str::from_utf8(&rest[..sp])
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|&n| n > sp && n <= rest.len())
        else {
            break;
        };
        let rec = &rest[sp + 1..len];
        let rec = rec.strip_suffix(b"\n").unwrap_or(rec);
        if let Some(eq) = rec.iter().position(|c| *c == b'=') {
            out.push((
                String::from_utf8_lossy(&rec[..eq]).into_owned(),
                String::from_utf8_lossy(&rec[eq + 1..]).into_owned(),
            ));
        }
        rest = &rest[len..];
    }
    out
}

/// Lists a tar stream into `l` (whose format is already set).
fn list_tar(r: &mut dyn Read, l: &mut Listing, budget: &mut Budget) {
    let mut h = [0u8; 512];
    let mut long_name: Option<String> = None;
    let mut long_link: Option<String> = None;
    let mut pax_size: Option<u64> = None;
    let mut index = 0usize;
    let fail = |l: &mut Listing, e: io::Error, what: &str| {
        let issue = match e.kind() {
            io::ErrorKind::UnexpectedEof => Issue::Malformed(format!("truncated {what}")),
            _ => Issue::Malformed(format!("{what}: {e}")),
        };
        if !l.issues.contains(&issue) {
            l.issues.push(issue);
        }
    };
    loop {
        match read_full(r, &mut h) {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => return fail(l, e, "tar header"),
        }
        if h.iter().all(|c| *c == 0) {
            return;
        }
        if !budget.entry() {
            // The header just read is the first entry left unread.
            cut(&mut l.issues, Bound::Entries, None, None);
            return;
        }
        index += 1;
        if !checksum_ok(&h) {
            l.issues.push(Issue::Malformed(format!(
                "tar header #{index} has a bad checksum"
            )));
            return;
        }
        let Some(mut size) = octal(&h[124..136]) else {
            l.issues.push(Issue::Malformed(format!(
                "tar header #{index} has a bad size"
            )));
            return;
        };
        if let Some(s) = pax_size.take() {
            size = s;
        }
        let Some(padded) = size.div_ceil(512).checked_mul(512) else {
            l.issues.push(Issue::Malformed(format!(
                "tar header #{index}: an impossible member size ({size} bytes)"
            )));
            return;
        };
        let flag = h[156];
        // Metadata entries whose data describes the next member.
        if matches!(flag, b'L' | b'K' | b'x' | b'g') {
            if size > 1 << 20 {
                l.issues.push(Issue::Malformed(format!(
                    "tar header #{index}: {} metadata entry",
                    crate::text::with_article(&format!("{size}-byte"))
                )));
                return;
            }
            let mut data = vec![0u8; padded as usize];
            if let Err(e) = read_full(r, &mut data).and_then(|ok| {
                ok.then_some(())
                    .ok_or_else(|| io::ErrorKind::UnexpectedEof.into())
            }) {
                return fail(l, e, "tar metadata entry");
            }
            data.truncate(size as usize);
            match flag {
                b'L' => long_name = Some(cstr(&data)),
                b'K' => long_link = Some(cstr(&data)),
                b'x' => {
                    for (k, v) in pax(&data) {
                        match k.as_str() {
                            "path" => long_name = Some(v),
                            "linkpath" => long_link = Some(v),
                            "size" => pax_size = v.parse().ok(),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        let ustar = &h[257..262] == b"ustar";
        let name = long_name.take().unwrap_or_else(|| {
            let base = cstr(&h[0..100]);
            let prefix = if ustar {
                cstr(&h[345..500])
            } else {
                String::new()
            };
            if prefix.is_empty() {
                base
            } else {
                format!("{prefix}/{base}")
            }
        });
        let link = long_link.take().unwrap_or_else(|| cstr(&h[157..257]));
        let kind = match flag {
            b'0' | 0 | b'7' if name.ends_with('/') => MemberKind::Dir,
            b'0' | 0 | b'7' => MemberKind::File,
            b'1' => MemberKind::Hardlink,
            b'2' => MemberKind::Symlink,
            b'5' => MemberKind::Dir,
            _ => MemberKind::Other,
        };
        let mode = octal(&h[100..108]).map(|m| m as u32);
        let mut m = Member {
            name,
            kind,
            link_target: matches!(kind, MemberKind::Symlink | MemberKind::Hardlink).then_some(link),
            size,
            mode,
            head: Vec::new(),
            nested: None,
        };
        l.declared_total = l.declared_total.saturating_add(size);
        // Data: the head, the whole member when it is a nested archive, else skipped.
        let mut consumed = 0u64;
        if kind == MemberKind::File && size > 0 {
            let mut head = vec![0u8; (size as usize).min(HEAD)];
            if let Err(e) = read_full(r, &mut head).and_then(|ok| {
                ok.then_some(())
                    .ok_or_else(|| io::ErrorKind::UnexpectedEof.into())
            }) {
                l.members.push(m);
                return fail(l, e, "tar member");
            }
            consumed = head.len() as u64;
            m.head = head;
            if looks_like_archive(&m.name, &m.head) {
                if l.depth + 1 > MAX_DEPTH {
                    l.issues.push(Issue::TooDeep(m.name.clone()));
                } else if size <= budget.inflate_left && size <= MAX_INFLATE {
                    let mut whole = m.head.clone();
                    whole.resize(size as usize, 0);
                    if let Err(e) = read_full(r, &mut whole[consumed as usize..]).and_then(|ok| {
                        ok.then_some(())
                            .ok_or_else(|| io::ErrorKind::UnexpectedEof.into())
                    }) {
                        l.members.push(m);
                        return fail(l, e, "tar member");
                    }
                    consumed = size;
                    budget.inflate_left = budget.inflate_left.saturating_sub(size);
                    m.nested = list_at(&whole, l.depth + 1, budget).map(Box::new);
                } else {
                    cut(&mut l.issues, Bound::Inflate, None, Some(size));
                }
            }
        }
        if !budget.admit(l, m) {
            cut(&mut l.issues, Bound::Notable, None, None);
            return;
        }
        // Links, directories and devices carry no data in practice; honour the size anyway.
        if let Err(e) = skip(r, padded - consumed) {
            return fail(l, e, "tar member");
        }
    }
}

// ---------------------------------------------------------------------------
// gzip
// ---------------------------------------------------------------------------

/// A reader that stops (as at end of input) after `limit` bytes and says so.
struct Limited<R> {
    inner: R,
    read: u64,
    limit: u64,
    hit: bool,
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.limit - self.read;
        if left == 0 {
            self.hit = true;
            return Ok(0);
        }
        let k = buf.len().min(left as usize);
        let n = self.inner.read(&mut buf[..k])?;
        self.read += n as u64;
        Ok(n)
    }
}

fn list_gzip(b: &[u8], depth: u8, budget: &mut Budget) -> Listing {
    let mut l = Listing::new("gzip", b.len(), depth);
    if b.len() < 18 || b[2] != 8 {
        l.issues.push(Issue::Malformed(
            "gzip header truncated or not deflate".into(),
        ));
        return l;
    }
    let isize_ = le32(b, b.len() - 4).unwrap_or(0);
    // The original file name (FNAME), if recorded.
    let fname = if b[3] & 0x08 != 0 {
        let mut at = 10;
        if b[3] & 0x04 != 0 {
            at += 2 + le16(b, 10).unwrap_or(0) as usize;
        }
        b.get(at..)
            .and_then(|s| s.iter().position(|c| *c == 0).map(|e| &s[..e]))
            .map(|s| String::from_utf8_lossy(s).into_owned())
    } else {
        None
    };
    let mut dec = Limited {
        inner: MultiGzDecoder::new(b),
        read: 0,
        limit: budget.inflate_left,
        hit: false,
    };
    let mut first = vec![0u8; 512];
    let mut got = 0;
    while got < first.len() {
        match dec.read(&mut first[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => {
                l.issues
                    .push(Issue::Malformed(format!("gzip stream is corrupt: {e}")));
                budget.inflate_left = budget.inflate_left.saturating_sub(dec.read);
                return l;
            }
        }
    }
    first.truncate(got);
    if is_tar_header(&first) {
        l.format = "tar.gz";
        let mut chained = io::Cursor::new(first).chain(&mut dec);
        list_tar(&mut chained, &mut l, budget);
        // Drain what the tar did not read (end blocks, padding) to measure the stream.
        let drained = skip_to_end(&mut dec);
        // A budget stop surfaces in the tar parser as a truncation.
        if dec.hit {
            l.issues.retain(|i| !matches!(i, Issue::Malformed(_)));
            let unread = isize_.checked_sub(dec.read).filter(|n| *n > 0);
            cut(&mut l.issues, Bound::Inflate, None, unread);
        } else if let Err(e) = &drained {
            let issue = gzip_issue(e);
            if !l.issues.contains(&issue) {
                l.issues.push(issue);
            }
        }
        let trailer = trusted_isize(isize_, &drained, dec.hit);
        l.declared_total = l.declared_total.max(trailer).max(dec.read);
    } else {
        let mut m = Member {
            name: fname.unwrap_or_else(|| "(compressed content)".into()),
            kind: MemberKind::File,
            link_target: None,
            size: 0,
            mode: None,
            head: first[..first.len().min(HEAD)].to_vec(),
            nested: None,
        };
        let drained = skip_to_end(&mut dec);
        if let Err(e) = &drained {
            l.issues.push(gzip_issue(e));
        }
        if dec.hit {
            let unread = isize_.checked_sub(dec.read).filter(|n| *n > 0);
            cut(&mut l.issues, Bound::Inflate, None, unread);
        }
        m.size = trusted_isize(isize_, &drained, dec.hit).max(dec.read);
        l.declared_total = m.size;
        budget.admit(&mut l, m);
    }
    budget.inflate_left = budget.inflate_left.saturating_sub(dec.read);
    l
}

fn gzip_issue(e: &io::Error) -> Issue {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => Issue::Malformed("gzip stream is truncated".into()),
        _ => Issue::Malformed(format!("gzip stream is corrupt: {e}")),
    }
}

/// The gzip trailer's size (ISIZE) when it can be believed: the stream decoded to its end,
/// or decoding stopped at our own budget (the stream was sound so far and the trailer is
/// the only word on the rest). A truncated or corrupt stream's last four bytes are
/// whatever was cut there, never a size.
fn trusted_isize(isize_: u64, drained: &io::Result<()>, budget_hit: bool) -> u64 {
    if budget_hit || drained.is_ok() {
        isize_
    } else {
        0
    }
}

/// Reads `r` to its end (bounded by its own byte limit).
fn skip_to_end<R: Read>(r: &mut Limited<R>) -> io::Result<()> {
    let mut buf = [0u8; 16 * 1024];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

// ---------------------------------------------------------------------------
// Test helpers: archive builders (the unit tests here and in `packaging`, and the
// integration tests of hostile archives).
// ---------------------------------------------------------------------------

/// Builds archives in memory for tests (not part of the scanner).
#[doc(hidden)]
pub mod build {
    use std::io::Write;

    /// One zip member: name, content, Unix mode (0 = none), deflate?
    pub struct ZipMember<'a> {
        pub name: &'a str,
        pub data: &'a [u8],
        pub mode: u32,
        pub deflate: bool,
        /// Declared uncompressed size override (for lying headers).
        pub declared: Option<u32>,
    }

    pub fn file<'a>(name: &'a str, data: &'a [u8]) -> ZipMember<'a> {
        ZipMember {
            name,
            data,
            mode: 0o100_644,
            deflate: false,
            declared: None,
        }
    }

    pub fn zip(members: &[ZipMember<'_>]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut cd = Vec::new();
        for m in members {
            let payload = if m.deflate {
                let mut e =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
                e.write_all(m.data).unwrap();
                e.finish().unwrap()
            } else {
                m.data.to_vec()
            };
            let method: u16 = if m.deflate { 8 } else { 0 };
            let usize_ = m.declared.unwrap_or(m.data.len() as u32);
            let off = out.len() as u32;
            out.extend_from_slice(b"PK\x03\x04");
            out.extend_from_slice(&20u16.to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(&method.to_le_bytes());
            out.extend_from_slice(&[0; 8]); // time, date, crc
            out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            out.extend_from_slice(&usize_.to_le_bytes());
            out.extend_from_slice(&(m.name.len() as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(m.name.as_bytes());
            out.extend_from_slice(&payload);

            cd.extend_from_slice(b"PK\x01\x02");
            let made_by: u16 = if m.mode != 0 { 3 << 8 | 20 } else { 20 };
            cd.extend_from_slice(&made_by.to_le_bytes());
            cd.extend_from_slice(&20u16.to_le_bytes());
            cd.extend_from_slice(&0u16.to_le_bytes());
            cd.extend_from_slice(&method.to_le_bytes());
            cd.extend_from_slice(&[0; 8]);
            cd.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            cd.extend_from_slice(&usize_.to_le_bytes());
            cd.extend_from_slice(&(m.name.len() as u16).to_le_bytes());
            cd.extend_from_slice(&[0; 8]); // extra, comment, disk, internal attrs
            cd.extend_from_slice(&(m.mode << 16).to_le_bytes());
            cd.extend_from_slice(&off.to_le_bytes());
            cd.extend_from_slice(m.name.as_bytes());
        }
        let cd_off = out.len() as u32;
        out.extend_from_slice(&cd);
        out.extend_from_slice(b"PK\x05\x06");
        out.extend_from_slice(&[0; 4]);
        let n = members.len() as u16;
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&(cd.len() as u32).to_le_bytes());
        out.extend_from_slice(&cd_off.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out
    }

    /// One ustar header + data; `flag` is the type flag.
    pub fn tar_entry(out: &mut Vec<u8>, name: &str, flag: u8, link: &str, data: &[u8]) {
        let mut h = [0u8; 512];
        h[..name.len().min(100)].copy_from_slice(&name.as_bytes()[..name.len().min(100)]);
        h[100..107].copy_from_slice(b"0000755");
        h[108..115].copy_from_slice(b"0000000");
        h[116..123].copy_from_slice(b"0000000");
        let size = format!("{:011o}", data.len());
        h[124..135].copy_from_slice(size.as_bytes());
        h[136..147].copy_from_slice(b"00000000000");
        h[156] = flag;
        h[157..157 + link.len()].copy_from_slice(link.as_bytes());
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|c| u32::from(*c)).sum();
        h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }

    pub fn tar_end(out: &mut Vec<u8>) {
        out.extend_from_slice(&[0u8; 1024]);
    }

    pub fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::build::*;
    use super::*;

    const ELF: &[u8] = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\x3e\0";

    #[test]
    fn zip_listing_with_heads_and_modes() {
        let z = zip(&[
            file("skill/SKILL.md", b"# hi"),
            ZipMember {
                name: "skill/bin/tool",
                data: ELF,
                mode: 0o100_755,
                deflate: true,
                declared: None,
            },
            ZipMember {
                name: "skill/link",
                data: b"../../etc/passwd",
                mode: 0o120_777,
                deflate: false,
                declared: None,
            },
            file("skill/docs/", b""),
        ]);
        let l = list(&z).unwrap();
        assert_eq!(l.format, "zip");
        assert!(l.issues.is_empty(), "{:?}", l.issues);
        assert_eq!(l.members.len(), 4);
        assert_eq!(l.members[0].head, b"# hi");
        assert_eq!(l.members[1].head, ELF);
        assert_eq!(l.members[1].mode, Some(0o100_755));
        assert_eq!(l.members[2].kind, MemberKind::Symlink);
        assert_eq!(
            l.members[2].link_target.as_deref(),
            Some("../../etc/passwd")
        );
        assert_eq!(l.members[3].kind, MemberKind::Dir);
    }

    #[test]
    fn zip_names_that_disagree_are_issues() {
        let mut z = build::zip(&[build::file("ok.txt", b"id\n")]);
        assert!(
            !list(&z)
                .unwrap()
                .issues
                .iter()
                .any(|i| matches!(i, Issue::NameDisagrees { .. }))
        );
        // The local header names another file than the central directory.
        let at = memchr::memmem::find(&z, b"PK\x03\x04").unwrap() + 30;
        z[at..at + 6].copy_from_slice(b"ev.txt");
        let l = list(&z).unwrap();
        assert!(
            l.issues.iter().any(|i| matches!(
                i,
                Issue::NameDisagrees { other, source: "local header", .. } if other == "ev.txt"
            )),
            "{:?}",
            l.issues
        );
        // The Info-ZIP Unicode-path field, which unzip and 7-Zip prefer.
        let name = b"../../evil.sh";
        let mut extra = vec![0x75, 0x70];
        extra.extend_from_slice(&(5 + name.len() as u16).to_le_bytes());
        extra.push(1);
        extra.extend_from_slice(&[0, 0, 0, 0]);
        extra.extend_from_slice(name);
        assert_eq!(unicode_path(&extra).as_deref(), Some("../../evil.sh"));
        assert_eq!(unicode_path(&extra[..6]), None);
    }

    #[test]
    fn zips_are_also_read_from_their_local_headers() {
        let whole = build::zip(&[
            build::file("ok.txt", b"fine\n"),
            build::file("../../evil.sh", b"id\n"),
        ]);
        // An ordinary zip: the walk agrees with the directory.
        let l = list(&whole).unwrap();
        assert!(l.issues.is_empty(), "{:?}", l.issues);
        assert_eq!(l.members.len(), 2);
        // Directory cut off (or cut in the middle): members come from the local headers.
        let cd = memchr::memmem::find(&whole, b"PK\x01\x02").unwrap();
        for end in [cd, cd + 30, whole.len() - 10] {
            let l = list(&whole[..end]).unwrap();
            let names: Vec<&str> = l.members.iter().map(|m| m.name.as_str()).collect();
            assert_eq!(names, ["ok.txt", "../../evil.sh"], "cut at {end}");
            assert!(matches!(l.issues[0], Issue::Malformed(_)), "{:?}", l.issues);
            assert!(!l.issues.iter().any(|i| matches!(i, Issue::LocalOnly(_))));
        }
        // A local header that the complete directory leaves out.
        let mut z = whole[..cd].to_vec();
        let one = build::zip(&[build::file("ok.txt", b"fine\n")]);
        let lcd = memchr::memmem::find(&one, b"PK\x01\x02").unwrap();
        let mut tail = one[lcd..].to_vec();
        let e = memchr::memmem::find(&tail, b"PK\x05\x06").unwrap();
        let off = (z.len() as u32).to_le_bytes();
        tail[e + 12..e + 16].copy_from_slice(&((one.len() - lcd - 22) as u32).to_le_bytes());
        tail[e + 16..e + 20].copy_from_slice(&off);
        z.extend_from_slice(&tail);
        let l = list(&z).unwrap();
        assert_eq!(
            l.issues,
            [Issue::LocalOnly("../../evil.sh".into())],
            "{:?}",
            l.members
        );
        assert_eq!(l.members.len(), 2);
        // A data descriptor after each member (sizes zero in the local header): the walk
        // finds the next header by its signature and skips the descriptor.
        let mut d = Vec::new();
        for (name, data) in [("a.txt", &b"one"[..]), ("../x.sh", b"two")] {
            d.extend_from_slice(b"PK\x03\x04\x14\0\x08\0\0\0");
            d.extend_from_slice(&[0; 12]);
            d.extend_from_slice(&[0, 0, 0, 0]);
            d.extend_from_slice(&(name.len() as u16).to_le_bytes());
            d.extend_from_slice(&[0, 0]);
            d.extend_from_slice(name.as_bytes());
            d.extend_from_slice(data);
            d.extend_from_slice(b"PK\x07\x08");
            d.extend_from_slice(&[0; 12]);
        }
        let l = list(&d).unwrap();
        let names: Vec<&str> = l.members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["a.txt", "../x.sh"]);
        assert_eq!(l.members[1].head, b"two");
    }

    #[test]
    fn zip_with_prefix_stub_and_declared_sizes() {
        let mut z = b"MZ-stub-of-a-self-extractor".to_vec();
        z.extend(zip(&[ZipMember {
            name: "big.bin",
            data: b"x",
            mode: 0,
            deflate: false,
            declared: Some(u32::MAX - 1),
        }]));
        let l = list_at(&z, 0, &mut fresh()).map(|_| ()).is_none();
        // Not sniffed as zip (starts with MZ), but listable when asked directly.
        assert!(l);
        let l = list_zip(&z, 0, &mut fresh());
        assert!(l.issues.is_empty(), "{:?}", l.issues);
        assert_eq!(l.members[0].head, b"x");
        assert_eq!(l.declared_total, u64::from(u32::MAX - 1));
        assert!(l.declared_total > MAX_DECLARED);
    }

    fn fresh() -> Budget {
        Budget::new(|_| false)
    }

    #[test]
    fn malformed_zips_are_issues() {
        let z = zip(&[file("a.txt", b"hello")]);
        for cut in [0, 4, 10, 30, z.len() / 2, z.len() - 1] {
            let l = list_zip(&z[..cut], 0, &mut fresh());
            assert!(
                l.issues.iter().any(|i| matches!(i, Issue::Malformed(_))),
                "cut {cut}: {:?}",
                l.issues
            );
        }
        // A damaged central directory signature.
        let mut bad = z.clone();
        let cd = bad.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        bad[cd + 2] = 9;
        let l = list_zip(&bad, 0, &mut fresh());
        assert!(matches!(l.issues[0], Issue::Malformed(_)));
        // Garbage never panics.
        for n in 0..200usize {
            let g: Vec<u8> = (0..n).map(|i| (i * 31 % 256) as u8).collect();
            let mut g2 = b"PK\x03\x04".to_vec();
            g2.extend(&g);
            g2.extend(b"PK\x05\x06");
            g2.extend(&g[..g.len().min(18)]);
            let _ = list(&g2);
            let mut t = g.clone();
            t.resize(1024, 7);
            let _ = list(&t);
            let _ = list(&[&[0x1f, 0x8b, 8, 0][..], &g].concat());
        }
    }

    #[test]
    fn member_cap() {
        // Past the bound, plain members are counted and notable ones kept: the listing is
        // complete, not cut.
        let names: Vec<String> = (0..MAX_MEMBERS + 5).map(|i| format!("f{i}")).collect();
        let mut members: Vec<ZipMember<'_>> = names.iter().map(|n| file(n, b"")).collect();
        members.push(file("late.sh", b"#!/bin/sh\n"));
        let z = zip(&members);
        let l = list_with(&z, |m| m.name.ends_with(".sh")).unwrap();
        assert_eq!(l.members.len(), MAX_MEMBERS + 1);
        assert_eq!(l.members.last().unwrap().name, "late.sh");
        assert_eq!(l.unlisted, 5);
        assert!(l.issues.is_empty(), "{:?}", l.issues);
        // Too many notable members past the bound: the listing stops and says so.
        let l = list_with(&z, |_| true);
        let mut budget = Budget::new(|_| true);
        budget.notable_left = 2;
        let l2 = list_zip(&z, 0, &mut budget);
        assert_eq!(l.unwrap().members.len(), MAX_MEMBERS + 6);
        assert_eq!(l2.members.len(), MAX_MEMBERS + 2);
        assert_eq!(
            l2.issues,
            [Issue::Cut {
                bound: Bound::Notable,
                unread_members: Some(4),
                unread_bytes: None
            }]
        );
        assert_eq!(l2.total_members(), MAX_MEMBERS as u64 + 2);
    }

    #[test]
    fn entry_bound_is_a_count_not_a_clock() {
        // The same archive stops at the same entry, however long each entry took.
        let names: Vec<String> = (0..20).map(|i| format!("f{i}")).collect();
        let members: Vec<ZipMember<'_>> = names.iter().map(|n| file(n, b"x")).collect();
        let z = zip(&members);
        for _ in 0..3 {
            let mut budget = Budget::new(|_| false);
            budget.entries_left = 7;
            let l = list_zip(&z, 0, &mut budget);
            assert_eq!(l.members.len(), 7);
            assert_eq!(
                l.issues,
                [Issue::Cut {
                    bound: Bound::Entries,
                    unread_members: Some(13),
                    unread_bytes: None
                }]
            );
        }
        // Tar: the entry bound counts headers.
        let mut t = Vec::new();
        for n in &names {
            tar_entry(&mut t, n, b'0', "", b"x");
        }
        tar_end(&mut t);
        let mut budget = Budget::new(|_| false);
        budget.entries_left = 7;
        let l = list_at(&t, 0, &mut budget).unwrap();
        assert_eq!(l.members.len(), 7);
        assert!(
            matches!(
                l.issues[..],
                [Issue::Cut {
                    bound: Bound::Entries,
                    ..
                }]
            ),
            "{:?}",
            l.issues
        );
    }

    #[test]
    fn zip_with_exactly_65535_entries_is_listed() {
        // The 16-bit entry count at its maximum, no ZIP64 record: valid, and listed in full.
        let names: Vec<String> = (0..0xffff).map(|i| format!("f{i}")).collect();
        let mut members: Vec<ZipMember<'_>> = names.iter().map(|n| file(n, b"")).collect();
        members[0xfffe] = file("../../evil.sh", b"#!/bin/sh\n");
        let z = zip(&members);
        let l = list_with(&z, |m| m.name.contains("..")).unwrap();
        assert!(l.issues.is_empty(), "{:?}", l.issues);
        assert_eq!(l.members.len() as u64 + l.unlisted, 0xffff);
        assert_eq!(l.members.last().unwrap().name, "../../evil.sh");
    }

    #[test]
    fn truncated_gzip_trailer_is_not_a_size() {
        // Incompressible-ish content: the cut lands mid-stream, and the last four bytes
        // are compressed data, not ISIZE.
        let data: Vec<u8> = (0..400_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let g = gzip(&data);
        for cut in [g.len() / 2, g.len() - 9, g.len() - 5] {
            let l = list(&g[..cut]).unwrap();
            assert!(
                l.declared_total <= data.len() as u64,
                "cut {cut}: {} bytes declared",
                l.declared_total
            );
            assert!(
                l.issues.iter().any(|i| matches!(i, Issue::Malformed(_))),
                "cut {cut}: {:?}",
                l.issues
            );
        }
        // The whole stream: the trailer agrees with what was inflated.
        assert_eq!(list(&g).unwrap().declared_total, data.len() as u64);
    }

    #[test]
    fn nesting_is_bounded() {
        let mut z = zip(&[file("payload.txt", b"x")]);
        for i in 0..5 {
            let name = format!("layer{i}.zip");
            z = zip(&[ZipMember {
                name: &name,
                data: &z,
                mode: 0,
                deflate: i % 2 == 0,
                declared: None,
            }]);
        }
        let l = list(&z).unwrap();
        let mut depth = 0;
        let mut cur = &l;
        let mut deep = false;
        loop {
            deep |= cur.issues.iter().any(|i| matches!(i, Issue::TooDeep(_)));
            match cur.members.first().and_then(|m| m.nested.as_deref()) {
                Some(n) => {
                    depth += 1;
                    cur = n;
                }
                None => break,
            }
        }
        assert_eq!(depth, MAX_DEPTH as usize);
        assert!(deep);
    }

    #[test]
    fn tar_listing_long_names_links_and_pax() {
        let mut t = Vec::new();
        let long = format!("skill/{}/file.txt", "d".repeat(120));
        tar_entry(
            &mut t,
            "././@LongLink",
            b'L',
            "",
            format!("{long}\0").as_bytes(),
        );
        tar_entry(&mut t, "short", b'0', "", b"hello");
        tar_entry(&mut t, "skill/up", b'2', "../../../etc/passwd", b"");
        tar_entry(&mut t, "skill/hard", b'1', "/etc/shadow", b"");
        let rec = "27 path=skill/pax-name.bin\n";
        tar_entry(&mut t, "PaxHeader", b'x', "", rec.as_bytes());
        tar_entry(&mut t, "ignored", b'0', "", ELF);
        tar_end(&mut t);
        let l = list(&t).unwrap();
        assert_eq!(l.format, "tar");
        assert!(l.issues.is_empty(), "{:?}", l.issues);
        let names: Vec<&str> = l.members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                long.as_str(),
                "skill/up",
                "skill/hard",
                "skill/pax-name.bin"
            ]
        );
        assert_eq!(l.members[0].head, b"hello");
        assert_eq!(l.members[1].kind, MemberKind::Symlink);
        assert_eq!(l.members[2].kind, MemberKind::Hardlink);
        assert_eq!(l.members[2].link_target.as_deref(), Some("/etc/shadow"));
        assert_eq!(l.members[3].head, ELF);
    }

    #[test]
    fn truncated_and_corrupt_tars() {
        let mut t = Vec::new();
        tar_entry(&mut t, "a.txt", b'0', "", &[b'a'; 2000]);
        tar_end(&mut t);
        for cut in [600, 1000, 1500] {
            let l = list(&t[..cut]).unwrap();
            assert!(
                l.issues.iter().any(|i| matches!(i, Issue::Malformed(_))),
                "{cut}: {:?}",
                l.issues
            );
        }
        let mut bad = t.clone();
        bad[0] = b'b';
        assert!(list(&bad).is_none() || !list(&bad).unwrap().issues.is_empty());
        assert_eq!(octal(b"\x80\0\0\0\0\0\0\0\0\0\x01\0"), Some(256));
        assert_eq!(octal(b"0000644 \0"), Some(0o644));
        assert_eq!(octal(b"zz"), None);
    }

    #[test]
    fn gzip_and_tgz() {
        let g = gzip(&[0u8; 200_000]);
        let l = list(&g).unwrap();
        assert_eq!(l.format, "gzip");
        assert_eq!(l.declared_total, 200_000);
        assert!(l.ratio() > 100);
        let mut t = Vec::new();
        tar_entry(&mut t, "skill/run.sh", b'0', "", b"#!/bin/sh\necho hi\n");
        tar_entry(&mut t, "/abs/path", b'0', "", b"x");
        tar_end(&mut t);
        let l = list(&gzip(&t)).unwrap();
        assert_eq!(l.format, "tar.gz");
        assert!(l.issues.is_empty(), "{:?}", l.issues);
        assert_eq!(l.members.len(), 2);
        assert_eq!(l.members[1].name, "/abs/path");
        // Corrupt and truncated streams.
        let mut c = gzip(&t);
        let n = c.len();
        c[n / 2] ^= 0xff;
        c[n / 2 + 1] ^= 0xff;
        let l = list(&c).unwrap();
        assert!(!l.issues.is_empty() || l.members.len() < 2, "{l:?}");
        let l = list(&gzip(&t)[..40]).unwrap();
        assert!(!l.issues.is_empty());
    }

    #[test]
    fn gzip_budget_stops_inflation() {
        // 80 MiB of zeros compresses to ~80 KiB: the 64 MiB inflate budget stops it.
        let g = gzip(&vec![0u8; 80 << 20]);
        let l = list(&g).unwrap();
        assert!(
            l.issues.iter().any(|i| matches!(
                i,
                Issue::Cut {
                    bound: Bound::Inflate,
                    ..
                }
            )),
            "{:?}",
            l.issues
        );
        assert!(l.declared_total >= MAX_INFLATE);
        assert!(l.ratio() > 100);
    }
}
