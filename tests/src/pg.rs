//! A fresh `PostgreSQL` database for one test, on the server `DATABASE_URL_PG` names (trust
//! auth on 127.0.0.1 in CI: `.ci/postgres`), dropped when the test ends, even by a panic.
//! Without the variable the test says so and is skipped; with `UGOLKI_REQUIRE_PG=1` (set by
//! `.ci/run`) a missing server fails it instead.
//!
//! One file for every crate's tests: the core's store tests and the bots' tests include it
//! by path (it needs only std, tokio and sqlx).

use std::sync::atomic::{AtomicU64, Ordering};

/// The server's URL, or None after saying why `test` is skipped.
pub fn server(test: &str) -> Option<String> {
    match std::env::var("DATABASE_URL_PG") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("UGOLKI_REQUIRE_PG").is_err(),
                "{test}: DATABASE_URL_PG is unset but UGOLKI_REQUIRE_PG asks for PostgreSQL"
            );
            eprintln!("skipped {test}: DATABASE_URL_PG is unset (docs/operators.md, \"Tests on PostgreSQL\")");
            None
        }
    }
}

/// `url` with its database name replaced by `db` (query parameters kept).
pub fn with_database(url: &str, db: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
    let (authority, tail) = rest.split_once('/').unwrap_or((rest, ""));
    match tail.split_once('?') {
        Some((_, q)) => format!("{scheme}://{authority}/{db}?{q}"),
        None => format!("{scheme}://{authority}/{db}"),
    }
}

/// A database made for one test and dropped after it.
pub struct Database {
    server: String,
    name: String,
    /// Where it is: give it to `Store::connect` or `DATABASE_URL`.
    pub url: String,
}

impl Database {
    /// A new empty database, or None (skipped) without a server.
    pub async fn create(test: &str) -> Option<Database> {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let server = server(test)?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_micros());
        let name = format!(
            "ugolki_t_{}_{}_{stamp}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&server)
            .await
            .unwrap_or_else(|e| panic!("{test}: cannot reach PostgreSQL at DATABASE_URL_PG: {e}"));
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .expect("CREATE DATABASE");
        let _ = sqlx::Connection::close(admin).await;
        let url = with_database(&server, &name);
        Some(Database { server, name, url })
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let (server, name) = (self.server.clone(), self.name.clone());
        // Drop runs inside the test's runtime: drop the database from a thread of its own.
        let done = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async {
                if let Ok(mut admin) =
                    <sqlx::PgConnection as sqlx::Connection>::connect(&server).await
                {
                    let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                    )))
                    .execute(&mut admin)
                    .await;
                }
            });
        });
        let _ = done.join();
    }
}

/// The payloads heard on `listener` before the first that starts with `marker` (a notice
/// the test sends after those it awaits: `PostgreSQL` delivers them in commit order), each
/// within 5 s.
// Not every test that includes this file listens.
#[allow(dead_code)]
pub async fn heard_before(listener: &mut sqlx::postgres::PgListener, marker: &str) -> Vec<String> {
    let mut heard = Vec::new();
    for _ in 0..100 {
        let n = tokio::time::timeout(std::time::Duration::from_secs(5), listener.recv())
            .await
            .expect("a notice within 5 s")
            .expect("a notice");
        if n.payload().starts_with(marker) {
            return heard;
        }
        heard.push(n.payload().to_string());
    }
    panic!("{marker:?} never came")
}

#[test]
fn the_database_name_is_replaced_and_the_rest_kept() {
    assert_eq!(
        with_database("postgres://u@127.0.0.1:5432/postgres", "t1"),
        "postgres://u@127.0.0.1:5432/t1"
    );
    assert_eq!(
        with_database("postgres://u:p@h/db?sslmode=disable", "t2"),
        "postgres://u:p@h/t2?sslmode=disable"
    );
    assert_eq!(with_database("postgres://h", "t3"), "postgres://h/t3");
}
