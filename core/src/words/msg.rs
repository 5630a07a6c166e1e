//! Every sentence a player (or a console user) reads, as a typed value: the catalogue key and
//! its arguments. The table and the adapters build these; [`super::render`] turns them into
//! words. Tests compare these values, never English.

use super::args::{Arg, Duration, List, OrList};
use super::code::Code;
use super::Lang;
use crate::clock::TimeControl;
use crate::color::Color;
use crate::game::{EndCause, Rules};
use crate::rating::RatingKind;
use crate::square::Square;
use fluent_bundle::FluentValue;

/// One declaration per message: the variant, its arguments (the Fluent variables of the same
/// names) and its catalogue key. Generates the key, the arguments and a sample of each
/// message for the catalogue tests.
macro_rules! messages {
    ($( $(#[doc = $doc:literal])* $name:ident $({ $($field:ident : $ty:ty),+ $(,)? })? => $key:literal, )+) => {
        /// A message for a person, in no language yet.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Msg {
            $( $(#[doc = $doc])* $name $({ $($field: $ty),+ })?, )+
            /// Several messages, one per line.
            Lines(Vec<Msg>),
        }

        impl Msg {
            /// The catalogue key (`lines` for [`Msg::Lines`], which has no entry).
            #[must_use]
            pub fn key(&self) -> &'static str {
                match self {
                    $( Msg::$name { .. } => $key, )+
                    Msg::Lines(_) => "lines",
                }
            }

            /// The Fluent arguments, by variable name.
            pub(crate) fn args(&self, lang: Lang) -> Vec<(&'static str, FluentValue<'static>)> {
                match self {
                    $( Msg::$name $({ $($field),+ })? => vec![ $($( (stringify!($field), Arg::value($field, lang)) ),+)? ], )+
                    Msg::Lines(_) => Vec::new(),
                }
            }

            /// The message as stored: its key and its arguments by name (JSON).
            #[must_use]
            pub fn to_json(&self) -> serde_json::Value {
                let mut m = serde_json::Map::new();
                m.insert("k".into(), serde_json::Value::from(self.key()));
                match self {
                    $( Msg::$name $({ $($field),+ })? => {
                        $($( m.insert(stringify!($field).into(), Code::encode($field)); )+)?
                    } )+
                    Msg::Lines(lines) => {
                        m.insert("lines".into(), serde_json::Value::Array(lines.iter().map(Msg::to_json).collect()));
                    }
                }
                serde_json::Value::Object(m)
            }

            /// A stored message read back; `None` when this version does not know it.
            #[must_use]
            pub fn from_json(v: &serde_json::Value) -> Option<Msg> {
                let upgraded = super::code::upgrade(v);
                let v = upgraded.as_ref().unwrap_or(v);
                match v.get("k")?.as_str()? {
                    $( $key => Some(Msg::$name $({ $($field: <$ty as Code>::decode(v.get(stringify!($field))?)?),+ })?), )+
                    "lines" => v.get("lines")?.as_array()?.iter().map(Msg::from_json).collect::<Option<Vec<_>>>().map(Msg::Lines),
                    _ => None,
                }
            }

            /// One of every message, with sample arguments.
            #[must_use]
            pub fn samples() -> Vec<Msg> {
                vec![ $( Msg::$name $({ $($field: Arg::sample()),+ })?, )+ ]
            }
        }
    };
}

messages! {
    // ---- Pieces of other messages ----
    DurationDays { days: i64, hours: i64 } => "duration-days",
    TimeNone => "time-none",
    TimeFischer { text: String } => "time-fischer",
    TimePerMove { text: String } => "time-per-move",
    ListOr { first: String, second: String } => "list-or",
    GameNumber { id: i64 } => "game-number",
    /// The name of a game's own thread (Discord).
    ThreadName { id: i64 } => "thread-name",
    /// A rules family's name: `family` is a standard variant id, `training` or `damas`.
    /// `changes`: a training room's settings that are not its base variant's
    /// ([`Msg::RoomChange`]), `changed` whether there are any.
    RulesName { family: String, training: bool, flying: bool, changes: List, changed: bool } => "rules-name",
    /// One setting of a training room that differs from its base variant: `change` is
    /// `solo`, `ortho`, `diag`, `deadline` (at move `value`), `deadline-off`, `limit` (move
    /// `value`), `limit-off`, `blocking-on` (allowed), `blocking-off`, `lock-on`, `lock-off`
    /// or `home` (a home shape of its own).
    RoomChange { change: String, value: i64 } => "room-change",
    KindName { kind: String } => "kind-name",
    /// What a challenge offers: `Corners, classic 3×3 · 10+5 · rated`.
    Terms { rules: Box<Rules>, time: TimeControl, rated: bool, movetime: Option<Duration>, monitor: bool, stake: Option<i64> } => "terms",

    // ---- Why games end (stored as codes) ----
    CauseCompleted => "cause-completed",
    CauseBothCompleted { move_no: u16 } => "cause-both-completed",
    CauseReturnedHome { side: Color } => "cause-returned-home",
    CauseLeftHomeLate { side: Color } => "cause-left-home-late",
    CauseBothLeftHomeLate => "cause-both-left-home-late",
    CauseLimit { white: u32, black: u32 } => "cause-limit",
    CauseRepetition => "cause-repetition",
    CauseNoLegalMove { side: Color } => "cause-no-legal-move",
    CauseNoReply => "cause-no-reply",
    CauseNoPieces { side: Color } => "cause-no-pieces",
    CauseCannotMove { side: Color } => "cause-cannot-move",
    CauseFlag { side: Color } => "cause-flag",
    CauseResigned { side: Color } => "cause-resigned",
    CauseAgreed => "cause-agreed",
    CauseAborted => "cause-aborted",
    CauseChatGone => "cause-chat-gone",
    CauseAbandoned { side: Color } => "cause-abandoned",
    CauseNoFirstMove { side: Color } => "cause-no-first-move",
    /// The command line's result line: `white wins (completed target)`, `ongoing`.
    ResultLine { winner: Option<Color>, ended: bool, cause: Option<EndCause> } => "result-line",

    // ---- Why a move is refused ----
    Refused { text: String, reason: Box<Msg> } => "refused",
    TextEmpty => "text-empty",
    TextTooLong => "text-too-long",
    TextBadSquare { text: String } => "text-bad-square",
    TextOneSquare => "text-one-square",
    TextBadNumber { text: String } => "text-bad-number",
    IllNoPieceOfYours { square: Square } => "ill-no-piece-of-yours",
    IllOffBoard { square: Square } => "ill-off-board",
    IllOccupied { square: Square } => "ill-occupied",
    IllMixed => "ill-mixed",
    IllWouldBlock { square: Square } => "ill-would-block",
    IllUnreachable { from: Square, to: Square } => "ill-unreachable",
    IllSameSquare { square: Square } => "ill-same-square",
    IllNotDiagonally { from: Square, to: Square } => "ill-not-diagonally",
    IllNotAJump { from: Square, to: Square } => "ill-not-a-jump",
    IllNothingToJump { square: Square } => "ill-nothing-to-jump",
    IllRevisit { square: Square } => "ill-revisit",
    IllTargetLocked { square: Square } => "ill-target-locked",
    IllGameOver => "ill-game-over",
    IllNotPlaying { square: Square } => "ill-not-playing",
    IllCaptureCompulsory => "ill-capture-compulsory",
    IllQuantity { count: u32 } => "ill-quantity",
    IllQuality { kings: u32, count: u32 } => "ill-quality",
    IllMustContinue { square: Square } => "ill-must-continue",
    IllBackward => "ill-backward",
    IllCrowned { square: Square } => "ill-crowned",
    IllNotAMove { from: Square, to: Square } => "ill-not-a-move",
    IllNothingToTake { from: Square, to: Square } => "ill-nothing-to-take",
    IllTakenTwice { square: Square } => "ill-taken-twice",
    IllAmbiguous { options: OrList } => "ill-ambiguous",

    // ---- Variants ----
    VariantUnknown { id: String } => "variant-unknown",
    VariantBadOption { option: String } => "variant-bad-option",
    VariantBadHome { problem: Box<Msg> } => "variant-bad-home",
    HomeNotASquare { item: String } => "home-not-a-square",
    HomeEmpty => "home-empty",
    HomeOffBoard { square: Square } => "home-off-board",
    HomeTooMany { count: usize, max: usize } => "home-too-many",
    HomeBothHomes { square: Square } => "home-both-homes",

    // ---- Reading commands ----
    CmdTooLong { max: usize } => "cmd-too-long",
    CmdUnknown { name: String } => "cmd-unknown",
    CmdChallengeWord { word: String } => "cmd-challenge-word",
    CmdNotAGameNumber { text: String } => "cmd-not-a-game-number",
    CmdExtraWord { command: String, word: String } => "cmd-extra-word",
    NoSuchNumber { typed: String } => "no-such-number",
    CmdMoveMissing => "cmd-move-missing",
    CmdMovesMissing => "cmd-moves-missing",
    CmdMovesOneSquare { word: String } => "cmd-moves-one-square",
    CmdOneGame => "cmd-one-game",
    CmdOneTimeControl => "cmd-one-time-control",
    CmdTwoWays { first: String, second: String } => "cmd-two-ways",
    CmdNameAfterAt => "cmd-name-after-at",
    CmdKingsAreDamas { word: String } => "cmd-kings-are-damas",
    CmdMovetimeRange => "cmd-movetime-range",
    CmdDamasOptions => "cmd-damas-options",
    CmdNotRated { rules: Box<Rules> } => "cmd-not-rated",
    CmdStakeNeedsRated => "cmd-stake-needs-rated",
    CmdStakeNumber => "cmd-stake-number",
    CmdSpaceBeforeAt { command: String, name: String } => "cmd-space-before-at",
    CmdBadMention { word: String } => "cmd-bad-mention",

    // ---- Buttons ----
    BtnAccept => "btn-accept",
    BtnDecline => "btn-decline",
    BtnCancel => "btn-cancel",
    BtnResign => "btn-resign",
    BtnOfferDraw => "btn-offer-draw",
    BtnAcceptDraw => "btn-accept-draw",
    BtnDeclineDraw => "btn-decline-draw",
    BtnAbort => "btn-abort",
    BtnConfirm => "btn-confirm",
    BtnClaim => "btn-claim",
    BtnSquare { square: Square } => "btn-square",
    BtnBack => "btn-back",
    /// Opens the game's board as the Telegram Mini App.
    BtnOpenBoard => "btn-open-board",
    /// Discord `/help` in a DM or group DM the bot is not part of (a user-installed app).
    DiscordPrivateHelp => "discord-private-help",
    /// Discord: the bot lacks permissions it needs in the channel (`list`: their names).
    MissingPermissions { list: String } => "missing-permissions",
    /// A Discord permission's name as its settings show it (`permission`: its key).
    PermissionName { permission: String } => "permission-name",
    /// `/help` in a group where the bot gets only commands for it and replies.
    HelpCommandsOnly { bot: String } => "help-commands-only",
    /// `/help` in a group where the bot reads no messages but those that mention it.
    HelpMentionsOnly { bot: String } => "help-mentions-only",
    /// Telegram inline mode: a challenge card before it is sent (caption, and the line
    /// under its title in the list of cards).
    InlineCardOpen { from: String, terms: Box<Msg> } => "inline-card-open",
    InlineCardTo { from: String, to: String, terms: Box<Msg> } => "inline-card-to",
    InlineCardForAnyone => "inline-card-for-anyone",
    InlineCardFor { to: String } => "inline-card-for",
    /// A card's button pressed before its challenge was set up.
    InlineNotReady => "inline-not-ready",
    /// A card pressed long after it was offered (its challenge would have expired).
    InlineCardExpired => "inline-card-expired",
    /// Inline mode without a place for pictures: the button over the (empty) results.
    InlineUnavailable => "inline-unavailable",
    /// No card could get a picture (the room for pictures of training rooms is full).
    InlineNoTraining => "inline-no-training",
    /// A piece picked by button: where it can go.
    Picked { id: i64, square: Square, list: String } => "picked",
    ButtonStale => "button-stale",
    ButtonNotYours => "button-not-yours",

    // ---- Challenges ----
    /// `pair_limit`: rated was asked, but the pair has had its rated games today (F2).
    ChallengeTo { id: i64, from: String, to: String, terms: Box<Msg>, wish: Option<Color>, minutes: i64, pair_limit: bool, buttons: bool } => "challenge-to",
    ChallengeOpen { id: i64, from: String, terms: Box<Msg>, wish: Option<Color>, minutes: i64, buttons: bool } => "challenge-open",
    /// A name that mixes alphabets (`сarol` with a Cyrillic `с`) may pass for another.
    LookAlike { name: String } => "look-alike",
    TooManyChallenges { max: i64 } => "too-many-challenges",
    /// A player with [`Config::max_active_games`](crate::table::Config) running games.
    TooManyGames { max: i64 } => "too-many-games",
    ChallengeRate { max: i64 } => "challenge-rate",
    /// A bare `/accept` with several challenges open to the sender (F3).
    WhichChallenge { list: List, first: i64, more: usize, decline: bool } => "which-challenge",
    /// The end of a list cut short: how many more there are.
    AndMore { count: usize } => "and-more",
    ChallengeBrief { id: i64, from: String, terms: Box<Msg> } => "challenge-brief",
    WhichToCancel { list: List, first: i64, more: usize } => "which-to-cancel",
    CancelBrief { id: i64, terms: Box<Msg> } => "cancel-brief",
    ChallengeTaken { id: i64, by: String, game: i64 } => "challenge-taken",
    SelfChallenge => "self-challenge",
    OneAtATime => "one-at-a-time",
    NoChallengeForYou => "no-challenge-for-you",
    NoSuchChallenge { id: i64 } => "no-such-challenge",
    ChallengeForSomeoneElse { id: i64 } => "challenge-for-someone-else",
    OwnChallenge { buttons: bool } => "own-challenge",
    ChallengeGone => "challenge-gone",
    Declined { id: i64, by: String, challenger: String } => "declined",
    OnlyTargetDeclines { buttons: bool } => "only-target-declines",
    OnlyAuthorCancels => "only-author-cancels",
    Cancelled { id: i64 } => "cancelled",
    NothingToCancel => "nothing-to-cancel",
    Expired { id: i64, challenger: String } => "expired",
    NotEnoughChips { who: String, has: i64, stake: i64 } => "not-enough-chips",
    StakeNotCovered { stake: i64 } => "stake-not-covered",
    UnknownPlayer { handle: String } => "unknown-player",

    // ---- Games ----
    GameStarted { id: i64, white: String, black: String, terms: Box<Msg>, pair_limit: bool } => "game-started",
    NoFirstMove { id: i64, who: String } => "no-first-move",
    AlreadyPlayed { recorded: String } => "already-played",
    TooManyPictures { max: i64 } => "too-many-pictures",
    RecordMore { id: i64, moves: String } => "record-more",
    NoGameHere => "no-game-here",
    // ---- The engine ----
    CmdBotLevel { max: i64 } => "cmd-bot-level",
    BotUnrated => "bot-unrated",
    Hint { id: i64, recorded: String } => "hint",
    HintOnlyVsBot => "hint-only-vs-bot",
    ReviewNotOver { id: i64 } => "review-not-over",
    /// The caption of a replay: the game and how many moves it had.
    ReviewIntro { id: i64, white: String, black: String, moves: i64 } => "review-intro",
    /// A game longer than a review covers: its last `shown` plies of `total`.
    ReviewTail { shown: i64, total: i64 } => "review-tail",
    /// A turning point: the move played, the engine's choice, and what it cost
    /// (`whole`.`tenth` men in Damas, steps in Corners).
    TurningPoint { move_no: u32, who: String, played: String, better: String, whole: i64, tenth: i64, damas: bool } => "turning-point",
    /// A turning point past numbers: the mover let a forced win go (`won`), or walked into
    /// a forced loss.
    DecisiveTurningPoint { move_no: u32, who: String, played: String, better: String, won: bool } => "turning-point-decisive",
    /// Corners: the move left the mover more pieces at home than moves before C6's check
    /// (`deadline`), where the engine's choice did not.
    DeadlineTurningPoint { move_no: u32, who: String, played: String, better: String, deadline: i64 } => "turning-point-deadline",
    /// Corners: the search's count of C6 (deeper than the move's own position) swung by
    /// the move: it let a deadline won by that count go (`won`), or lost it.
    DeadlineSeenTurningPoint { move_no: u32, who: String, played: String, better: String, deadline: i64, won: bool } => "turning-point-deadline-seen",
    ReviewNoTurningPoints => "review-no-turning-points",
    SoloTurningPoint { move_no: u32, played: String, better: String, moves: i64 } => "solo-turning-point",
    // ---- The training room ----
    /// After `vs`: `bot [LEVEL]` or `@user`.
    CmdTrainVs => "cmd-train-vs",
    TrainCornersOnly => "train-corners-only",
    TrainUnrated => "train-unrated",
    /// A solo crossing began; `minimum` 0 = none known.
    SoloStarted { id: i64, rules: Box<Rules>, minimum: i64 } => "solo-started",
    /// The corner is full after `moves` moves; `minimum` 0 = none known.
    SoloCrossed { id: i64, who: String, moves: i64, minimum: i64, optimal: bool } => "solo-crossed",
    /// The limit came first, or no move was left.
    SoloNotCrossed { id: i64, moves: i64 } => "solo-not-crossed",
    SoloAbandoned { id: i64 } => "solo-abandoned",
    /// A solo hint: the move, then `left` more moves on the route found.
    SoloHint { id: i64, recorded: String, left: i64, shortest: bool } => "solo-hint",
    SoloNoRoute { id: i64 } => "solo-no-route",
    Undone { id: i64, who: String, plies: i64 } => "undone",
    UndoOnlyTraining => "undo-only-training",
    UndoNothing { id: i64 } => "undo-nothing",
    UndoOpponentMoved => "undo-opponent-moved",
    SeveralGames { ids: List, first: i64 } => "several-games",
    /// [`Msg::SeveralGames`] for a command other than a move: how to name the game to it
    /// (`command` is its word, as typed after the slash).
    SeveralGamesFor { ids: List, first: i64, command: String } => "several-games-for",
    /// [`Msg::SeveralGames`] for a typed move: the example is the move typed.
    SeveralGamesMove { ids: List, first: i64, text: String } => "several-games-move",
    NoSuchGame { id: i64 } => "no-such-game",
    NotYourGame { id: i64 } => "not-your-game",
    GameIsOver { id: i64 } => "game-is-over",
    NotYourTurn => "not-your-turn",
    ConfirmNeeded { recorded: String, deadline: u16, buttons: bool } => "confirm-needed",
    NothingToConfirm => "nothing-to-confirm",
    /// A Resign button's first press: the second, within `seconds`, resigns.
    ResignAsk { id: i64, seconds: i64 } => "resign-ask",
    /// The caption under a board after a move.
    AfterMove { mover: String, recorded: String, status: Box<Msg>, offer_declined: bool } => "after-move",
    /// `Move 12 · alice 4:32 · bob 3:10 · leave home by 40 · limit 80 · bob to move`.
    /// The status line of a game that has ended (its result is said beside it).
    StatusOver => "status-over",
    Status { move_no: u32, clocks: Option<Box<Msg>>, deadline: Option<u16>, limit: Option<u16>, to_move: String } => "status",
    StatusClocks { white: String, white_clock: Duration, black: String, black_clock: Duration } => "status-clocks",
    /// The board header's second line.
    BoardInfo { move_no: u32, deadline: Option<u16>, limit: Option<u16> } => "board-info",
    BoardCaption { id: i64, status: Box<Msg> } => "board-caption",
    /// A result by the rules: `Game #3 over: alice (White) wins — completed target (C5).`
    RulesResult { id: i64, winner: Option<Color>, name: String, cause: EndCause, rule: String } => "rules-result",
    Flagged { id: i64, loser: String, winner: String } => "flagged",
    Resigned { id: i64, loser: String, winner: String } => "resigned",
    ResignedAnnulled { id: i64, loser: String } => "resigned-annulled",
    RatingChanges { changes: List } => "rating-changes",
    RatingChange { name: String, after: i64, sign: String, delta: i64 } => "rating-change",
    /// `buttons`: in a chat played by buttons only (one message), the buttons are named
    /// instead of the commands (also in the two challenges).
    DrawOffered { by: String, to: String, buttons: bool } => "draw-offered",
    SoloNoDraw => "solo-no-draw",
    DrawAlreadyOffered => "draw-already-offered",
    DrawAgreed { id: i64 } => "draw-agreed",
    NoDrawOffer => "no-draw-offer",
    DrawDeclined { by: String } => "draw-declined",
    AbortTooLate => "abort-too-late",
    Aborted { id: i64, by: String } => "aborted",
    NotMonitored { id: i64 } => "not-monitored",
    ClaimOnOwnTurn => "claim-on-own-turn",
    ClaimTooEarly { who: String, idle: Duration, limit: Duration } => "claim-too-early",
    IdleNotice { id: i64, idler: String, other: String, idle: Duration, buttons: bool } => "idle-notice",
    AbandonedWin { id: i64, loser: String, winner: String } => "abandoned-win",
    AbandonedVoid { id: i64, loser: String } => "abandoned-void",
    AutoMoved { id: i64, who: String, recorded: String } => "auto-moved",
    Reminder { id: i64, who: String, left: Duration } => "reminder",
    GamesNone => "games-none",
    GamesLine { id: i64, rules: Box<Rules>, opponent: String, my_turn: bool, here: bool } => "games-line",
    /// `/record`; `outcome` is a [`Msg::RecordResult`] once the game is over.
    Record { id: i64, white: String, black: String, rules: Box<Rules>, moves: String, outcome: Option<Box<Msg>> } => "record",
    /// `result` is `white`, `black`, `draw` or `void`; `name` the winner's.
    RecordResult { result: String, name: String, cause: Option<EndCause> } => "record-result",
    NoMovesFrom { square: Square } => "no-moves-from",
    MovesFrom { square: Square, list: String } => "moves-from",
    BadSquare { text: String } => "bad-square",
    InternalError => "internal-error",
    Conflict => "conflict",
    Help => "help",
    /// A command's line in a platform's menu.
    CommandHelp { command: String } => "command-help",
    /// A slash command option's line in a platform's menu (`option`: its key there).
    OptionHelp { option: String } => "option-help",
    /// A challenge to an @handle the bot has never seen.
    UnseenPlayer { handle: String } => "unseen-player",
    RulesCorners { rules: Box<Rules>, diagonal: bool, deadline: Option<u16>, limit: Option<u16>, no_blocking: bool, home_exemption: bool, target_lock: bool } => "rules-corners",
    RulesDamas { flying: bool } => "rules-damas",

    // ---- Ratings ----
    UnknownKind { word: String, kinds: String } => "unknown-kind",
    NoRatedGames { name: String } => "no-rated-games",
    RatingTitle { name: String } => "rating-title",
    RatingLine { kind: RatingKind, rating: i64, rank: Option<i64>, monthly: i64, monthly_rank: Option<i64>, games: i64, won: i64, drawn: i64, lost: i64 } => "rating-line",
    ChartTitle { name: String, kind: RatingKind } => "chart-title",
    /// Under the chart: games played, the rating now.
    ChartFooter { games: i64, rating: i64 } => "chart-footer",
    TopScope { kind: RatingKind, month: Option<String>, global: bool } => "top-scope",
    TopEmpty { scope: Box<Msg> } => "top-empty",
    TopLine { place: i64, name: String, rating: i64, games: i64 } => "top-line",
    TopYou { place: i64, name: String, rating: i64 } => "top-you",
    Chips { name: String, chips: i64 } => "chips",

    // ---- Tournaments ----
    /// The living announcement: its terms (a [`Msg::TournamentTerms`]), `status` (`open`,
    /// `running`, `finished` or `cancelled`), `starts` when it starts (`18:00 UTC`), and
    /// who has joined, by name.
    TournamentCard { id: i64, terms: Box<Msg>, status: String, starts: String, count: usize, players: String } => "tournament-card",
    /// What a tournament is: `format` `arena`, `swiss` or `roundrobin`, its games' terms,
    /// its rounds (Swiss, round robin) or minutes (arena).
    TournamentTerms { id: i64, format: String, rules: Box<Rules>, time: TimeControl, rated: bool, rounds: Option<i64>, minutes: Option<i64> } => "tournament-terms",
    TournamentUsage => "tournament-usage",
    /// A tournament asked for in a private chat.
    TournamentGroupsOnly => "tournament-groups-only",
    TournamentAdminsOnly => "tournament-admins-only",
    /// The chat has one open or running.
    TournamentBusy { id: i64 } => "tournament-busy",
    /// Its time control has no clock (`1d`, `none`): games could last for ever.
    TournamentNeedsClock => "tournament-needs-clock",
    TournamentBadWord { word: String } => "tournament-bad-word",
    TournamentBadStart { text: String } => "tournament-bad-start",
    TournamentBadRounds { max: i64 } => "tournament-bad-rounds",
    TournamentBadLength { min: i64, max: i64 } => "tournament-bad-length",
    /// Nothing open or running here.
    TournamentNone => "tournament-none",
    NoSuchTournament { id: i64 } => "no-such-tournament",
    TournamentNotCreator { id: i64 } => "tournament-not-creator",
    TournamentAlreadyStarted { id: i64 } => "tournament-already-started",
    /// `why`: `creator` (cancelled by them), `few` (fewer than two came).
    TournamentCancelled { id: i64, why: String } => "tournament-cancelled",
    TournamentJoined { id: i64, name: String, count: usize } => "tournament-joined",
    /// Back after withdrawing, or after a no-show paused them (arena).
    TournamentBack { id: i64, name: String } => "tournament-back",
    TournamentAlreadyIn { id: i64 } => "tournament-already-in",
    TournamentNotIn { id: i64 } => "tournament-not-in",
    TournamentWithdrew { id: i64, name: String } => "tournament-withdrew",
    TournamentFull { id: i64, max: i64 } => "tournament-full",
    /// A round robin under way takes no one new.
    TournamentClosed { id: i64 } => "tournament-closed",
    TournamentStarted { id: i64, count: usize, rounds: Option<i64>, minutes: Option<i64> } => "tournament-started",
    /// A round's heading; its boards follow as [`Msg::TournamentPairing`] and
    /// [`Msg::TournamentBye`] lines.
    TournamentRound { id: i64, round: i64, rounds: i64 } => "tournament-round",
    TournamentPairing { game: i64, white: String, black: String } => "tournament-pairing",
    /// `point`: a Swiss bye scores one; a round robin's does not.
    TournamentBye { name: String, point: bool } => "tournament-bye",
    /// A round robin's game that a withdrawn entrant forfeits.
    TournamentForfeit { winner: String, loser: String } => "tournament-forfeit",
    /// The first board of a tournament's game.
    TournamentGameStarted { id: i64, tournament: i64, white: String, black: String, time: TimeControl, rated: bool } => "tournament-game-started",
    /// `status`: `live` or `final`; the lines follow as [`Msg::TournamentLine`].
    TournamentStandings { id: i64, status: String, round: Option<i64> } => "tournament-standings",
    /// A standings line: `score` as written (`3½`), `marks` the games (`1 ½ 0 + *`),
    /// `change` the rating change (a [`Msg::TournamentChange`]), `performance` if any game
    /// was decided.
    TournamentLine { place: usize, name: String, score: String, marks: String, change: Option<Box<Msg>>, performance: Option<i64>, paused: bool } => "tournament-line",
    /// A rating change on a standings line: `sign` `plus`, `minus` or `zero`.
    TournamentChange { sign: String, delta: i64 } => "tournament-change",
    /// A tournament's game whose player never made a first move: they lose it there (an
    /// arena also pauses them until they come back). The game itself is void (F1).
    TournamentNoShow { id: i64, who: String, tournament: i64, paused: bool } => "tournament-no-show",
    TournamentOver { id: i64, winner: String } => "tournament-over",
    /// `/rating`: a finished tournament of the player's, and their place in it.
    TournamentPlace { id: i64, format: String, place: usize, of: usize } => "tournament-place",
    /// A heading of the standings picture: `place`, `name`, `score`, `games`, `change` or
    /// `performance`.
    StandingsColumn { column: String } => "standings-column",
    BtnJoin => "btn-join",
    BtnWithdraw => "btn-withdraw",

    // ---- Languages ----
    /// A language's own name (`Русский`).
    LangName { code: String } => "lang-name",
    /// `whose`: `you` or `chat`; `lang` a [`Msg::LangName`], or `none` back to automatic.
    LangSet { whose: String, lang: Option<Box<Msg>> } => "lang-set",
    LangUnknown { code: String, list: String } => "lang-unknown",
    LangNow { lang: Box<Msg>, list: String } => "lang-now",

    // ---- The public web pages ----
    /// A game page's title and heading.
    WebGameTitle { id: i64, white: String, black: String } => "web-game-title",
    WebMoves => "web-moves",
    /// The board page's Resign button after one tap: a second tap resigns (a click on a
    /// board is easily a slip).
    WebResignSure => "web-resign-sure",
    WebNoMoves => "web-no-moves",
    /// Which position the board shows: after `ply` of `plies` plies.
    WebAtPly { ply: i64, plies: i64 } => "web-at-ply",
    WebFirst => "web-first",
    WebPrevious => "web-previous",
    WebNext => "web-next",
    WebLatest => "web-latest",
    /// A running game's page reloads itself (no script needed).
    WebLive { seconds: i64 } => "web-live",
    WebDownloadPdn => "web-download-pdn",
    WebReplayGif => "web-replay-gif",
    /// A game that is not there, or not public (played in a private chat).
    WebNoGame { id: i64 } => "web-no-game",
    WebTopTitle => "web-top-title",
    /// The Mini App opened without a game.
    WebOpenFromChat => "web-open-from-chat",
    /// An address that is no page of ours (a mistyped link).
    WebNoPage => "web-no-page",
    /// A console sign-in link opened twice, too late, or where there is no console.
    WebSeatGone => "web-seat-gone",
    /// A Discord Activity's page while the Discord client signs its reader in.
    WebActivitySigningIn => "web-activity-signing-in",
    /// A move or press on the board page from a reader the server does not know as a player.
    WebNotSeated => "web-not-seated",
    /// Too many requests from one address.
    WebTooMany { seconds: i64 } => "web-too-many",
    /// Links from the chat to the public pages.
    WebGameAt { url: String } => "web-game-at",
    WebTopAt { url: String } => "web-top-at",
    WebNoPlayer { id: i64 } => "web-no-player",
    /// A player's page's heading (the chat's `/rating` title ends in a colon).
    WebPlayerTitle { name: String } => "web-player-title",
    WebPlayerGames => "web-player-games",
    WebNoPublicGames => "web-no-public-games",
    /// A game in a list; `outcome` a [`Msg::RecordResult`] once it is over.
    WebGameLine { id: i64, white: String, black: String, rules: Box<Rules>, outcome: Option<Box<Msg>> } => "web-game-line",
    /// A tournament that is not there (or not a group's).
    WebNoTournament { id: i64 } => "web-no-tournament",
    /// A tournament's page, from the chat.
    WebTournamentAt { url: String } => "web-tournament-at",
    /// The heading of a tournament page's games.
    WebTournamentGames => "web-tournament-games",
    /// A running tournament's page reloads itself.
    WebTournamentLive { seconds: i64 } => "web-tournament-live",

    // ---- The console's own lines ----
    ConsoleWelcome => "console-welcome",
    /// `--web`: where each game's page is (`url` the pages' base).
    ConsoleWebAt { url: String } => "console-web-at",
    /// A game that starts, with `--web`: its board in a browser, then each player's
    /// one-time sign-in link.
    ConsoleWebGame { id: i64, url: String } => "console-web-game",
    ConsoleWebSeat { name: String, url: String, minutes: i64 } => "console-web-seat",
    ConsoleLineShape => "console-line-shape",
    ConsoleBadName { name: String, max: usize } => "console-bad-name",
    ConsoleLineTooLong { max: usize } => "console-line-too-long",
    ConsoleNotText => "console-not-text",
    ConsoleNoSuchButton { label: String } => "console-no-such-button",
}
