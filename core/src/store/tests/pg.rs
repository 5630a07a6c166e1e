//! A fresh `PostgreSQL` database per test (the shared helper of every crate's tests, in
//! `tests/src/pg.rs`), with a store on it.

#[path = "../../../../tests/src/pg.rs"]
mod database;

use crate::store::Store;

pub(crate) use database::heard_before;
pub(crate) use database::Database as TestDb;

impl TestDb {
    /// A store on the database (one "process"; call again for another).
    pub async fn store(&self) -> Store {
        Store::connect(&self.url)
            .await
            .expect("store on PostgreSQL")
    }
}
