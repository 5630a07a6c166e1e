//! Real browsers for the tests: Debian's chromium driven by Playwright (`tests/browser`,
//! `npm ci` there), each helper script a child process spoken to a line at a time.

/// The browser tests' folder ([`browser`]), or the test ends here, saying it was skipped
/// (where `UGOLKI_REQUIRE_BROWSER` is set, as in CI, a missing browser fails instead).
#[macro_export]
macro_rules! browser_or_skip {
    () => {
        match $crate::browser::browser() {
            Some(dir) => dir,
            None => {
                eprintln!("skipped: no node, chromium or tests/browser/node_modules (see .ci/run)");
                return;
            }
        }
    };
}

/// Node.js, Debian's chromium and `tests/browser`'s packages, when this machine has them
/// (`.ci/run` installs them, and then sets `UGOLKI_REQUIRE_BROWSER` so that the test is
/// never skipped there).
pub fn browser() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("browser");
    let has = |p: &str| std::path::Path::new(p).exists();
    let node = std::process::Command::new("node").arg("--version").output();
    let ready = node.is_ok_and(|o| o.status.success())
        && has("/usr/bin/chromium")
        && dir.join("node_modules/playwright-core").exists();
    assert!(
        ready || std::env::var_os("UGOLKI_REQUIRE_BROWSER").is_none(),
        "UGOLKI_REQUIRE_BROWSER is set but node, chromium or tests/browser/node_modules is missing"
    );
    ready.then_some(dir)
}

/// The next line a helper process said, waiting at most `wait`.
pub async fn next(
    said: &mut tokio::sync::mpsc::UnboundedReceiver<String>,
    wait: std::time::Duration,
) -> Option<String> {
    tokio::time::timeout(wait, said.recv()).await.ok().flatten()
}

/// A helper script of `tests/browser` run by Node.js, its lines read on a thread of its
/// own: the child, where to write to it, and what it says.
pub fn node_script(
    script: &std::path::Path,
    args: &[String],
) -> (
    std::process::Child,
    std::process::ChildStdin,
    tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    use std::io::BufRead;
    let mut node = std::process::Command::new("node")
        .arg(script)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node starts");
    let (tx, said) = tokio::sync::mpsc::unbounded_channel();
    let out = node.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let ask = node.stdin.take().expect("stdin");
    (node, ask, said)
}

/// Wait (at most 30 s) for a helper process to end well; kill it otherwise.
pub async fn closes(node: &mut std::process::Child) {
    for _ in 0..300 {
        if let Ok(Some(status)) = node.try_wait() {
            assert!(status.success(), "{status}");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let _ = node.kill();
    panic!("the browser did not close");
}

/// Several people's browsers at once (`tests/browser/pages.js`): a line `NAME VERB ARGS…`
/// asked, one line answered (see the script for its verbs).
pub struct Browsers {
    node: std::process::Child,
    ask: Option<std::process::ChildStdin>,
    said: tokio::sync::mpsc::UnboundedReceiver<String>,
}

impl Browsers {
    /// The script of `dir` (from [`browser`]) started.
    #[must_use]
    pub fn start(dir: &std::path::Path) -> Browsers {
        let (node, ask, said) = node_script(&dir.join("pages.js"), &[]);
        Browsers {
            node,
            ask: Some(ask),
            said,
        }
    }

    /// `who` does `line`; what the browser answers (at most 10 s later).
    pub async fn ask(&mut self, who: &str, line: &str) -> String {
        use std::io::Write;
        let ask = self.ask.as_mut().expect("open");
        writeln!(ask, "{who} {line}").expect("said to the browsers");
        next(&mut self.said, std::time::Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("no answer to {who} {line}"))
    }

    /// Close every browser, and wait for the script to end well.
    pub async fn close(mut self) {
        drop(self.ask.take());
        closes(&mut self.node).await;
    }
}

/// `initData` for Telegram user `id` named `name`, signed at `auth_date` with `token` as
/// Telegram signs it (what its Mini App gives a page as `Telegram.WebApp.initData`).
pub fn init_data(token: &str, id: i64, name: &str, auth_date: i64) -> String {
    use hmac::{Hmac, KeyInit, Mac};
    let user = serde_json::json!({ "id": id, "first_name": name, "username": name.to_lowercase() })
        .to_string();
    let mut fields = [
        ("auth_date", auth_date.to_string()),
        ("query_id", format!("q{id}")),
        ("user", user),
    ];
    fields.sort();
    let check: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut secret = Hmac::<sha2::Sha256>::new_from_slice(b"WebAppData").expect("key");
    secret.update(token.as_bytes());
    let secret = secret.finalize().into_bytes();
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&secret).expect("key");
    mac.update(check.join("\n").as_bytes());
    let hash = mac
        .finalize()
        .into_bytes()
        .iter()
        .fold(String::new(), |mut hex, b| {
            use std::fmt::Write as _;
            let _ = write!(hex, "{b:02x}");
            hex
        });
    let mut q = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in &fields {
        q.append_pair(k, v);
    }
    q.append_pair("hash", &hash);
    q.finish()
}
