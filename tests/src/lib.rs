//! Shared helpers for the end-to-end tests of ugolki (the tests live in `tests/tests/`).

pub mod browser;
pub mod e2e;
pub mod fake_discord;
pub mod fake_telegram;
pub mod pg;
pub mod said;

/// What one in-process run of the `ugolki` command line produced.
#[derive(Debug)]
pub struct Run {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

/// Run the `ugolki` command line in-process with `args` (without the program name) and
/// `stdin` as standard input.
pub fn ugolki(args: &[&str], stdin: &str) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut input = stdin.as_bytes();
    let argv = std::iter::once("ugolki").chain(args.iter().copied());
    let code = ugolki_bots::cli::run(argv, &mut input, false, &mut out, &mut err);
    Run {
        code,
        stdout: String::from_utf8(out).expect("stdout is UTF-8"),
        stderr: String::from_utf8(err).expect("stderr is UTF-8"),
    }
}

/// One plain HTTP/1.1 request to `addr` (loopback servers of the bot: the Telegram webhook,
/// `/health`, `/metrics`): the status code and the body. `headers` are whole lines without
/// their line ends. Waits at most `timeout`; a server that does not answer gives status 0.
pub async fn http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[String],
    body: &str,
    timeout: std::time::Duration,
) -> (u16, String) {
    let (code, _, body) = http_bytes(addr, method, path, headers, body, timeout).await;
    (code, String::from_utf8_lossy(&body).into_owned())
}

/// [`http`], the answer's head (status line and headers) and its body as bytes (a picture).
pub async fn http_bytes(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[String],
    body: &str,
    timeout: std::time::Duration,
) -> (u16, String, Vec<u8>) {
    use std::fmt::Write as _;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(Ok(mut stream)) =
        tokio::time::timeout(timeout, tokio::net::TcpStream::connect(addr)).await
    else {
        return (0, String::new(), Vec::new());
    };
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n");
    for h in headers {
        request.push_str(h);
        request.push_str("\r\n");
    }
    let _ = write!(
        request,
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        return (0, String::new(), Vec::new());
    }
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(timeout, stream.read_to_end(&mut answer)).await;
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(answer.len());
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer.get(split + 4..).unwrap_or_default().to_vec();
    (code, head, body)
}

/// A loopback address with a free port (bound and let go: the caller binds it next).
pub fn free_addr() -> std::net::SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
}
