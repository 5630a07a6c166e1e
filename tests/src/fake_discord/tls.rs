//! The fake's HTTPS door, so that a client takes production's path: serenity's ratelimiter
//! builds every URL on `https://discord.com` (it ignores a proxy), so the tests resolve
//! `discord.com` to this door and trust the tests' own certificate authority. The door
//! speaks TLS as `discord.com` and passes each connection's bytes to the plain server.
//!
//! The certificates (`tls/`) are the tests' alone: a CA made for them, and a `discord.com`
//! certificate it signed, both valid for a century; the key is worth nothing anywhere else.

use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::{self, ServerConfig};
use tokio_rustls::TlsAcceptor;

/// The tests' certificate authority (DER): what a client must trust to reach the door.
pub const CA_DER: &[u8] = include_bytes!("tls/ca.der");
const LEAF_DER: &[u8] = include_bytes!("tls/leaf.der");
const KEY_DER: &[u8] = include_bytes!("tls/leaf.key.der");

/// Connections the door takes at most (every loop of the fake is bounded).
const MAX_CONNECTIONS: usize = 100_000;

fn config() -> ServerConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports the default versions")
        .with_no_client_auth()
        .with_single_cert(
            vec![CertificateDer::from(LEAF_DER.to_vec())],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(KEY_DER.to_vec())),
        )
        .expect("the tests' certificate and key match");
    // The plain server speaks HTTP/1.1 only.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    config
}

/// Open the door in front of the plain server at `plain`: its address. It closes with the
/// runtime (or after `lifetime`).
pub async fn open(plain: SocketAddr, lifetime: std::time::Duration) -> SocketAddr {
    let acceptor = TlsAcceptor::from(Arc::new(config()));
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local address");
    tokio::spawn(async move {
        let _ = tokio::time::timeout(lifetime, async move {
            for _ in 0..MAX_CONNECTIONS {
                let Ok((tcp, _)) = listener.accept().await else {
                    continue;
                };
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let Ok(mut up) = TcpStream::connect(plain).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut up).await;
                });
            }
        })
        .await;
    });
    addr
}
