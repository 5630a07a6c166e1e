//! Databases for the benchmarks (shared by the core's and the bots' benches): an `SQLite`
//! file in a temporary folder (WAL, full sync: what a bot runs on), and, when
//! `DATABASE_URL_PG` names a server, a fresh `PostgreSQL` database. Both go away after.

#![allow(dead_code)]

use std::path::PathBuf;

/// A database made for one benchmark.
pub struct BenchDb {
    pub url: String,
    /// What the figures are labelled with: `sqlite` or `postgres`.
    pub label: &'static str,
    dir: Option<PathBuf>,
    pg: Option<(String, String)>,
}

impl BenchDb {
    /// A new `SQLite` file.
    pub fn sqlite(name: &str) -> BenchDb {
        let dir = std::env::temp_dir().join(format!("ugolki-bench-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        BenchDb {
            url: format!("sqlite://{}", dir.join("bench.db").display()),
            label: "sqlite",
            dir: Some(dir),
            pg: None,
        }
    }

    /// A new `PostgreSQL` database, if `DATABASE_URL_PG` names a server.
    pub async fn postgres(name: &str) -> Option<BenchDb> {
        let server = std::env::var("DATABASE_URL_PG")
            .ok()
            .filter(|s| !s.is_empty());
        let Some(server) = server else {
            eprintln!("{name}: DATABASE_URL_PG is unset, PostgreSQL figures skipped");
            return None;
        };
        let db = format!("ugolki_bench_{name}_{}", std::process::id());
        let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&server)
            .await
            .expect("PostgreSQL at DATABASE_URL_PG");
        let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {db} WITH (FORCE)"
        )))
        .execute(&mut admin)
        .await;
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {db}")))
            .execute(&mut admin)
            .await
            .expect("CREATE DATABASE");
        let (head, _) = server.rsplit_once('/').expect("a database URL");
        Some(BenchDb {
            url: format!("{head}/{db}"),
            label: "postgres",
            dir: None,
            pg: Some((server, db)),
        })
    }
}

impl Drop for BenchDb {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        if let Some((server, db)) = self.pg.take() {
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime");
                rt.block_on(async {
                    if let Ok(mut admin) =
                        <sqlx::PgConnection as sqlx::Connection>::connect(&server).await
                    {
                        let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                            "DROP DATABASE IF EXISTS {db} WITH (FORCE)"
                        )))
                        .execute(&mut admin)
                        .await;
                    }
                });
            })
            .join();
        }
    }
}

/// Run statements of the benchmark's own on the database (filling it): each as it reads
/// in `SQLite` and in `PostgreSQL` (whose enum columns take typed literals).
pub async fn exec(url: &str, statements: &[(&'static str, &'static str)]) {
    if url.starts_with("sqlite:") {
        let pool = sqlx::SqlitePool::connect(url).await.expect("sqlite");
        for (s, _) in statements {
            sqlx::query(*s).execute(&pool).await.expect(s);
        }
        pool.close().await;
    } else {
        let pool = sqlx::PgPool::connect(url).await.expect("postgres");
        for (_, s) in statements {
            sqlx::query(*s).execute(&pool).await.expect(s);
        }
        pool.close().await;
    }
}
