//! Adapters spawn the store's and the table's futures on a multi-threaded runtime, so each
//! must be `Send` for any borrow a caller holds. A higher-ranked bound deep in sqlx (such as
//! `Migrator::run` through `Acquire`) silently breaks that for every caller, and the error
//! then surfaces far away, in an adapter's `tokio::spawn`. This file fails to compile the
//! moment one of these futures stops being `Send`.

use std::future::Future;
use std::sync::Arc;
use ugolki_core::store::Store;
use ugolki_core::table::{Config, Incoming, Origin, Table, TimeSource};

fn spawnable<F: Future + Send + 'static>(_: F) {}

#[allow(dead_code)]
fn store_futures(s: &'static Store) {
    spawnable(async move {
        let url = String::from("sqlite::memory:");
        let _ = Store::connect(&url).await;
    });
    spawnable(async move {
        let p = String::new();
        let _ = s.player_for(&p, &p, &p, Some(&p), 0).await;
        let _ = s.first_sight(&p, &p, &p, 1).await;
        let _ = s.try_exclusive(&p).await;
        let _ = s.resume(&p, 1, None).await;
    });
}

#[allow(dead_code)]
fn table_futures(
    store: Store,
    time: Arc<dyn TimeSource>,
    config: Config,
    t: Arc<Table>,
    o: Origin,
) {
    spawnable(async move {
        let _ = Table::open(store, time, config).await;
    });
    let timers = t.clone();
    spawnable(async move { timers.run_timers().await });
    let alive = t.clone();
    spawnable(async move { alive.keep_alive().await });
    spawnable(async move {
        let msg: Incoming = Incoming::text(o, "c3-d3", Vec::new());
        let _ = t.handle(&msg).await;
        let _ = t.suggest_moves(&msg.origin, "c3", 3).await;
        let _ = t.fire_due().await;
    });
}

#[test]
fn the_store_and_table_futures_are_send() {
    // The check is the compilation of this file; the functions above are never run.
}
