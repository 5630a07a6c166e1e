//! Typed columns: what a status, a result, a colour or the rules can be, checked when a row
//! is read (`PostgreSQL` keeps them as enum types; `SQLite` as text with CHECK constraints).

use crate::game::Rules;
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgTypeInfo, PgValueRef, Postgres};
use sqlx::sqlite::{Sqlite, SqliteArgumentsBuffer, SqliteTypeInfo, SqliteValueRef};
use sqlx::{Decode, Encode, Type};

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, sqlx::Type)]
#[sqlx(type_name = "game_status", rename_all = "lowercase")]
pub enum GameStatus {
    Active,
    Finished,
    /// Voided: aborted, or annulled.
    Aborted,
}

/// Where a challenge is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, sqlx::Type)]
#[sqlx(type_name = "challenge_status", rename_all = "lowercase")]
pub enum ChallengeStatus {
    Open,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

// The rules are stored as their id (`classic3x3`, `training:…`, `damas-short`): text in
// both databases, read back through `Rules::from_id`, so an id this version does not know
// is a decode error.

fn rules_from(id: &str) -> Result<Rules, BoxDynError> {
    Rules::from_id(id).map_err(|e| format!("unknown rules '{id}': {e:?}").into())
}

impl Type<Sqlite> for Rules {
    fn type_info() -> SqliteTypeInfo {
        <str as Type<Sqlite>>::type_info()
    }

    fn compatible(ty: &SqliteTypeInfo) -> bool {
        <&str as Type<Sqlite>>::compatible(ty)
    }
}

impl Encode<'_, Sqlite> for Rules {
    fn encode_by_ref(&self, buf: &mut SqliteArgumentsBuffer) -> Result<IsNull, BoxDynError> {
        <String as Encode<Sqlite>>::encode(self.id(), buf)
    }
}

impl<'r> Decode<'r, Sqlite> for Rules {
    fn decode(value: SqliteValueRef<'r>) -> Result<Rules, BoxDynError> {
        rules_from(<&str as Decode<Sqlite>>::decode(value)?)
    }
}

impl Type<Postgres> for Rules {
    fn type_info() -> PgTypeInfo {
        <str as Type<Postgres>>::type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <&str as Type<Postgres>>::compatible(ty)
    }
}

impl Encode<'_, Postgres> for Rules {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        <String as Encode<Postgres>>::encode(self.id(), buf)
    }
}

impl<'r> Decode<'r, Postgres> for Rules {
    fn decode(value: PgValueRef<'r>) -> Result<Rules, BoxDynError> {
        rules_from(<&str as Decode<Postgres>>::decode(value)?)
    }
}
