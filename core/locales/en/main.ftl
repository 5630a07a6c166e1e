### English: the reference catalogue. Every other language has every message here.
### Variables are the fields of `Msg` (core/src/words/msg.rs). Colours arrive as `white` /
### `black`, yes/no flags as `yes` / `no`, absent values as `none`.

## Pieces of other messages

duration-days = { $days }d { $hours }h
time-none = no clock
time-fischer = { $text }
time-per-move = { $text } per move
list-or = { $first } or { $second }
game-number = #{ $id }
thread-name = Game #{ $id }
rules-name = { $family ->
        [damas] Damas ({ $flying ->
            [yes] flying kings
           *[no] short kings
        })
       *[other] Corners, { $training ->
            [yes] training ({ $family ->
                [classic3x3] classic 3×3
                [classic3x4] classic 3×4
                [classic4x3] classic 3×4 (mirrored)
                [diagonal3x3] diagonal 3×3
                [diagonal3x4] diagonal 3×4
                [triangle] triangular home
                [square4x4] 4×4 home
                [halma16] Halma 16×16
               *[other] custom home
            }{ $changed ->
                [yes] ; { $changes }
               *[no] {""}
            })
           *[no] { $family ->
                [classic3x3] classic 3×3
                [classic3x4] classic 3×4
                [classic4x3] classic 3×4 (mirrored)
                [diagonal3x3] diagonal 3×3
                [diagonal3x4] diagonal 3×4
                [triangle] triangular home
                [square4x4] 4×4 home
                [halma16] Halma 16×16
               *[other] { $family }
            }
        }
    }
room-change = { $change ->
        [solo] solo
        [ortho] orthogonal moves only
        [diag] diagonal moves too
        [deadline] leave home by move { $value }
        [deadline-off] no deadline
        [limit] game ends at move { $value }
        [limit-off] no move limit
        [blocking-on] blocking allowed
        [blocking-off] blocking forbidden
        [lock-on] no leaving the opponent's home
        [lock-off] the opponent's home may be left
       *[home] a home of its own
    }
kind-name = { $kind ->
        [classic3x3] classic 3×3
        [classic3x4] classic 3×4
        [diagonal3x3] diagonal 3×3
       *[damas] Damas
    }
terms = { $rules } · { $time } · { $rated ->
        [yes] rated
       *[no] casual
    }{ $movetime ->
        [none] {""}
       *[other] {" · "}movetime { $movetime }
    }{ $monitor ->
        [yes] {" · "}activity monitor
       *[no] {""}
    }{ $stake ->
        [none] {""}
       *[other] {" · "}stake { $stake ->
            [one] { $stake } chip
           *[other] { $stake } chips
        }
    }

## Why games end

cause-completed = completed target
cause-both-completed = both completed target on move { $move_no }
cause-returned-home = { $side } returned home after the deadline
cause-left-home-late = { $side } left home late
cause-both-left-home-late = both left home late
cause-limit = move limit, { $white } to { $black } in target
cause-repetition = threefold repetition
cause-no-legal-move = { $side } has no legal move
cause-no-reply = completed target, black cannot reply
cause-no-pieces = { $side } has no pieces left
cause-cannot-move = { $side } cannot move
cause-flag = { $side } ran out of time
cause-resigned = { $side } resigned
cause-agreed = draw agreed
cause-aborted = aborted before both sides moved
cause-chat-gone = void: the bot was removed from the chat
cause-abandoned = { $side } abandoned the game
cause-no-first-move = { $side } never made a first move
result-line = { $ended ->
        [yes] { $winner ->
            [white] white wins ({ $cause })
            [black] black wins ({ $cause })
           *[none] draw ({ $cause })
        }
       *[no] ongoing
    }

## Why a move is refused

refused = { $text }: { $reason }
text-empty = the move is empty
text-too-long = the move is too long
text-bad-square = '{ $text }' is not a square
text-one-square = a move names at least two squares
text-bad-number = '{ $text }' is not a square number (1-32)
ill-no-piece-of-yours = no piece of yours on { $square }
ill-off-board = { $square } is not on this board
ill-occupied = { $square } is occupied
ill-mixed = a move is one step, or a chain of jumps: a step cannot be chained (rule C2)
ill-would-block = that would block the piece on { $square } (rule C8)
ill-unreachable = the piece on { $from } cannot reach { $to }: no step or chain of jumps leads there (rule C2)
ill-not-diagonally = { $from }-{ $to } is diagonal: in this variant pieces step and jump only up, down, left and right (rule C2)
ill-same-square = { $square }-{ $square } goes nowhere: a move ends on another square (rule C2)
ill-not-a-jump = { $from }-{ $to } is neither a step nor a jump (rule C2)
ill-nothing-to-jump = there is no piece on { $square } to jump over (rule C2)
ill-revisit = a chain never lands twice on { $square } (rule C2)
ill-target-locked = the piece on { $square } has reached its target and may not leave it
ill-game-over = the game is over
ill-not-playing = { $square } is not a playing square
ill-capture-compulsory = a capture is compulsory
ill-quantity = you must take the most pieces possible ({ $count })
ill-quality = you must take the most kings possible ({ $kings }) among captures of { $count }
ill-must-continue = the capture must go on from { $square }
ill-backward = men move and capture forward only
ill-crowned = a man crowned on { $square } stops there: its move ends (D2)
ill-not-a-move = { $from }-{ $to } is not a move of this piece
ill-nothing-to-take = there is no piece of the opponent to take between { $from } and { $to }
ill-taken-twice = the piece on { $square } was already taken in this move
ill-ambiguous = ambiguous: say which: { $options }

## Variants

variant-unknown = unknown variant '{ $id }' (try classic3x3, classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training)
variant-bad-option = training option '{ $option }' is not understood (ortho, diag, deadline=N|off, limit=N|off, blocking=on|off, lock=on|off, home=a1-c3.d1)
variant-bad-home = the home shape is not usable: { $problem }
home-not-a-square = '{ $item }' is not a square or a1-c3 range
home-empty = it has no squares
home-off-board = { $square } is not on the board
home-too-many = { $count } squares is more than { $max }
home-both-homes = { $square } would be in both homes

## Reading commands

cmd-too-long = That message is too long (at most { $max } characters).
cmd-unknown = Unknown command /{ $name } (see /help).
cmd-challenge-word = I don't understand '{ $word }' in the challenge (see /help).
cmd-not-a-game-number = '{ $text }' is not a game number.
cmd-extra-word = /{ $command } takes one number at most: '{ $word }' is one word too many.
no-such-number = No game, challenge or tournament has the number #{ $typed }.
cmd-move-missing = /move needs a move, e.g. /move c3-d4
cmd-moves-missing = /moves needs a square, e.g. /moves c3
cmd-moves-one-square = /moves shows one square's moves: '{ $word }' is one word too many (e.g. /moves c3).
cmd-one-game = Say one game, not two.
cmd-one-time-control = Say one time control, not two.
cmd-two-ways = '{ $first }' and '{ $second }' say different things: say one.
cmd-name-after-at = Write the player's name right after @.
cmd-kings-are-damas = '{ $word }' kings are a Damas option: say damas { $word }
cmd-movetime-range = movetime needs a time from 5s to 24h, e.g. movetime 30s
cmd-damas-options = movetime and monitor are Damas options.
cmd-not-rated = { $rules } games are not rated; say casual.
cmd-stake-needs-rated = A stake goes with a rated Damas game: damas rated stake 50
cmd-stake-number = stake needs a number of chips, e.g. stake 50
cmd-space-before-at = Put a space before @{ $name }: /{ $command } @{ $name }
cmd-bad-mention = '{ $word }' is not a name: write @name once, e.g. @bob

## Buttons (the console and outside checks rely on these English labels)

btn-accept = Accept
btn-decline = Decline
btn-cancel = Cancel
btn-resign = Resign
btn-offer-draw = Offer draw
btn-accept-draw = Accept draw
btn-decline-draw = Decline draw
btn-abort = Abort
btn-confirm = Confirm
btn-claim = Claim the game
btn-square = { $square }
btn-back = Back
btn-open-board = Open the board
help-commands-only = In this group the bot sees only commands addressed to it and replies to its messages (Telegram's privacy mode): type /m@{ $bot } c3-d4, or reply to the board with the move.
help-mentions-only = In this server the bot does not read messages: play with /move (it suggests your moves) or the buttons under the board. Typed moves work in DMs with the bot and in messages that mention @{ $bot }.
missing-permissions = I cannot host a game in this channel: I am missing { $list }. A server admin can grant them (Server Settings → Roles, or this channel's permissions).
permission-name = { $permission ->
    [view-channel] View Channel
    [send-messages] Send Messages
    [embed-links] Embed Links
    [attach-files] Attach Files
    [read-message-history] Read Message History
    [create-public-threads] Create Public Threads
   *[send-messages-in-threads] Send Messages in Threads
}
discord-private-help = In this chat I am not a member: a game here is played on one message, by its buttons only (no typed moves). I can only answer a press or a command, so a fallen flag or an automatic move shows at the next press; /games always tells how your games stand.
inline-card-open = { $from } offers a game: { $terms }. The first to press Accept plays.
inline-card-to = { $from } challenges { $to }: { $terms }. { $to }, press Accept to play.
inline-card-for-anyone = The first to press Accept plays
inline-card-for = Only { $to } can accept
inline-not-ready = This challenge is still being set up: press again in a moment.
inline-card-expired = This card is too old to start a game: send a new one.
inline-unavailable = Play with me in a private chat
inline-no-training = Training rooms: /train in a private chat with me
picked = Game #{ $id }: { $square } can go to { $list }. Press where, or Back for another piece.
button-stale = That button is out of date: the game has moved on.
button-not-yours = That button is not for you.

## Challenges

challenge-to = { $from } challenges { $to }: { $terms }{ $wish ->
        [white] {" "}({ $from } takes White)
        [black] {" "}({ $from } takes Black)
       *[none] {""}
    } — challenge #{ $id }.{ $pair_limit ->
        [yes] {" "}Casual: you have played your 3 rated games against each other today (F2).
       *[no] {""}
    } { $buttons ->
        [yes] { $to }: Accept or Decline below.
       *[no] { $to }: /accept or /decline.
    } It expires in { $minutes } min.
challenge-open = { $from } offers a game to anyone here: { $terms }{ $wish ->
        [white] {" "}({ $from } takes White)
        [black] {" "}({ $from } takes Black)
       *[none] {""}
    } — challenge #{ $id }. { $buttons ->
        [yes] Press Accept to play.
       *[no] /accept to play.
    } It expires in { $minutes } min.
look-alike = Careful: the name { $name } mixes alphabets, so it can look like someone else's.
too-many-challenges = You have { $max } open challenges already; wait for answers or /cancel one (F3).
too-many-games = You are playing { $max } games already; finish or resign one before starting another.
challenge-rate = That is more than { $max } challenges in a minute; wait a little (F3).
which-challenge = Several challenges are open for you: { $list }{ $more ->
    [0] {""}
   *[other] , and { $more } more
}. Say which, e.g. { $decline ->
    [yes] /decline
   *[no] /accept
} { $first }.
and-more = …and { $count } more
challenge-brief = #{ $id } from { $from } ({ $terms })
challenge-taken = Challenge #{ $id } accepted by { $by }: game #{ $game }.
self-challenge = You cannot play against yourself.
one-at-a-time = Challenge one player at a time.
no-challenge-for-you = There is no open challenge for you here.
no-such-challenge = There is no open challenge #{ $id } here.
challenge-for-someone-else = Challenge #{ $id } is for someone else.
own-challenge = That is your own challenge; { $buttons ->
        [yes] press Cancel if you changed your mind.
       *[no] /cancel it if you changed your mind.
    }
challenge-gone = That challenge was just taken, cancelled or expired.
declined = { $by } declined { $challenger }'s challenge #{ $id }.
only-target-declines = Only the challenged player can decline; the challenger can { $buttons ->
        [yes] press Cancel.
       *[no] /cancel.
    }
only-author-cancels = Only the challenger can cancel a challenge.
cancelled = Challenge #{ $id } cancelled.
nothing-to-cancel = You have no open challenge here.
which-to-cancel = You have several open challenges here: { $list }{ $more ->
    [0] {""}
   *[other] , and { $more } more
}. Say which, e.g. /cancel { $first }.
cancel-brief = #{ $id } ({ $terms })
expired = { $challenger }'s challenge #{ $id } expired.
not-enough-chips = { $who } has { $has ->
        [one] { $has } chip
       *[other] { $has } chips
    }, not enough for a stake of { $stake }.
stake-not-covered = Both players need { $stake ->
        [one] { $stake } chip
       *[other] { $stake } chips
    } for this game; one of you no longer has them.
unknown-player = I don't know @{ $handle } yet.

## Games

game-started = Game #{ $id }: { $white } (White) vs { $black } (Black) · { $terms }.{ $pair_limit ->
        [yes] {" "}Casual: you have played your 3 rated games against each other today (F2).
       *[no] {""}
    } { $white }, your move.
no-first-move = Game #{ $id } aborted: { $who } never made a first move (F1); it does not count.
already-played = { $recorded } was already played; it is your opponent's move.
too-many-pictures = That is more than { $max } pictures, hints and reviews a minute for you; wait a little.
record-more = Game #{ $id }, continued: { $moves }
no-game-here = You have no game in this chat.
several-games = You have several games here ({ $ids }); say which by its number: /move { $first } c3-d4, /board { $first }, /resign { $first }.
several-games-for = You have several games here ({ $ids }); say which by its number: /{ $command } { $first }.
several-games-move = You have several games here ({ $ids }); say which by its number: /move { $first } { $text }, /board { $first }, /resign { $first }.
no-such-game = There is no game #{ $id } in this chat.
not-your-game = You are not playing in game #{ $id }.
game-is-over = Game #{ $id } is over.
not-your-turn = Not your turn.
confirm-needed = { $recorded } ends in your own home after move { $deadline }, which loses the game at once (rule C6). { $buttons ->
        [yes] Press Confirm to play it anyway.
       *[no] Type /confirm to play it anyway.
    }
nothing-to-confirm = There is no move waiting for /confirm.
resign-ask = Resign game #{ $id }? Press { btn-resign } again within { $seconds } seconds to resign.
after-move = { $mover } played { $recorded }.{ $offer_declined ->
        [yes] {" "}The draw offer is declined.
       *[no] {""}
    } { $status }
status = Move { $move_no }{ $clocks ->
        [none] {""}
       *[other] {" · "}{ $clocks }
    }{ $deadline ->
        [none] {""}
       *[other] {" · "}leave home by { $deadline }
    }{ $limit ->
        [none] {""}
       *[other] {" · "}limit { $limit }
    } · { $to_move } to move
status-over = The game is over.
status-clocks = { $white } { $white_clock } · { $black } { $black_clock }
board-info = Move { $move_no }{ $deadline ->
        [none] {""}
       *[other] {" · "}leave home by { $deadline }
    }{ $limit ->
        [none] {""}
       *[other] {" · "}limit { $limit }
    }
board-caption = Game #{ $id }. { $status }
rules-result = { $winner ->
        [white] Game #{ $id } over: { $name } (White) wins — { $cause } ({ $rule }).
        [black] Game #{ $id } over: { $name } (Black) wins — { $cause } ({ $rule }).
       *[none] Game #{ $id } over: draw — { $cause } ({ $rule }).
    }
flagged = Game #{ $id }: { $loser } ran out of time — { $winner } wins (T1).
resigned = Game #{ $id }: { $loser } resigned — { $winner } wins (T2).
resigned-annulled = Game #{ $id }: { $loser } resigned after 10 moves or fewer — the game is annulled (R).
rating-changes = Ratings: { $changes }.
rating-change = { $name } { $after } ({ $sign ->
        [plus] +
        [minus] −
       *[zero] ±
    }{ $delta })
solo-no-draw = A solo has nobody to agree a draw with: /resign drops the attempt.
draw-offered = { $by } offers a draw. { $to }: { $buttons ->
        [yes] Accept draw or Decline draw below.
       *[no] /draw to accept, /nodraw to decline.
    }
draw-already-offered = You have already offered a draw.
draw-agreed = Game #{ $id }: draw agreed (T2).
no-draw-offer = There is no draw offer to decline.
draw-declined = { $by } declined the draw.
abort-too-late = Too late to abort: both sides have moved. You can /resign or offer a /draw.
aborted = Game #{ $id } aborted by { $by }; it does not count.
not-monitored = Game #{ $id } has no activity monitor.
claim-on-own-turn = It is your move; you can claim only while your opponent keeps you waiting.
claim-too-early = { $who } has been idle for { $idle }; you can claim after { $limit }.
idle-notice = Game #{ $id }: { $idler } has been idle for { $idle }. { $other } may { $buttons ->
        [yes] press Claim the game
       *[no] /claim the game
    } (D6).
abandoned-win = Game #{ $id }: { $loser } abandoned the game — { $winner } wins (D6).
abandoned-void = Game #{ $id }: { $loser } abandoned the game after 10 moves or fewer — the game is annulled (D6).
auto-moved = Game #{ $id }: { $who }'s move time ran out, so the table played { $recorded } for them (D6).
reminder = { $who }, it is your move in game #{ $id }: { $left } left.
games-none = You have no unfinished games.
games-line = #{ $id } { $rules } vs { $opponent } — { $my_turn ->
        [yes] your move
       *[no] their move
    }{ $here ->
        [yes] {""}
       *[no] {" "}(another chat)
    }
record = Game #{ $id }, { $white } – { $black }, { $rules }: { $moves ->
        [none] no moves yet
       *[other] { $moves }
    }{ $outcome ->
        [none] {""}
       *[other] {" "}— { $outcome }
    }
record-result = { $result ->
        [white] { $name } (white) wins
        [black] { $name } (black) wins
        [void] void
       *[draw] draw
    }{ $cause ->
        [none] {""}
       *[other] , { $cause }
    }
no-moves-from = Nothing can move from { $square } now.
moves-from = { $square } can go to { $list }.
bad-square = '{ $text }' is not a square.
internal-error = Something went wrong on our side; nothing was changed. Please try again.
conflict = The game changed while your message was being handled; nothing was changed. Look at the /board and try again.
help =
    Corners (Ugolki) and Damas in chat.
    /challenge @user [VARIANT | damas [flying|short] [movetime 30s] [monitor]] [10+5 | 30s+2 | 1d | none] [rated|casual] [white|black|random] — no @user: anyone may accept
    /accept, /decline, /cancel [N] — answer or withdraw a challenge (or press its buttons)
    Type moves as text: c3-d4, c3 e5, c3e3e5 (Damas: d3xf5, 11-15). With several games: /move N c3-d4
    /moves c3 — where c3 can go · /board · /games · /record N
    /resign · /draw (offer or accept) · /nodraw · /abort (before both have moved) · /confirm · /claim — or the buttons under the board
    /rating [@user] [kind] — ratings and a chart · /top [kind] [month] [global] — the leaderboard · /chips
    /rules [variant] — the rules
    /lang [en|ru|it|pt|auto] — your language (a group admin's: the chat's)
    /tournament arena|swiss|roundrobin [variant] [time] … — a tournament here (its admins) · /join · /withdraw · /standings [N]
    /play bot [1-5] [variant] [time] [white|black] — play the built-in engine (unrated) · /hint · /review N — a finished game as an animation
    /train [variant] [vs bot 1-5 | vs @user | solo] [time] — the training room (unrated, any variant, /undo and /hint allowed); solo: cross alone in as few moves as you can
    Variants: classic3x3 (default), classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training:…
option-help = { $option ->
       *[game] Game number (#12)
        [challenge] Challenge number
        [opponent] Who (nobody: anyone here)
        [variant] Game and variant
        [time] Time control: 10+5, 30s+2, 1d or none
        [rated] Rated or casual
        [color] Your colour
        [stake] Chips at stake (rated Damas)
        [move] The move: c3-d4, d3xf5, 11-15
        [square] A square: c3
        [player] Whose ratings
        [kind] classic3x3, classic3x4, diagonal3x3, damas
        [month] This month only
        [global] Everyone, not this chat
        [language] en, ru, pt, it, or auto
        [against] Whom: nobody (solo), the bot, or the player you name
        [friend] A friend to train with
        [level] The bot's level
        [room] classic3x3, triangle, … or training:classic3x3,diag,home=a1-b2
        [train-time] Time control: 10+5, 30s+2, 1d or none (default)
        [bot-variant] classic3x3, triangle, halma16, damas, …
        [what] arena, swiss, roundrobin, start or cancel
        [settings] rated, in 10m, at 18:00, 60m, 5 rounds
        [tournament] Tournament number
    }
command-help = { $command ->
        [start] Start here: what the bot does
        [help] All commands
        [challenge] Challenge a player (or anyone here) to a game
        [play] Play the bot: /play bot 3 classic3x3 5+3
        [accept] Accept a challenge
        [decline] Decline a challenge
        [cancel] Withdraw your challenge
        [m] Play a move: /m c3-d4
        [move] Play a move: /move c3-d4
        [moves] Where a piece can go: /moves c3
        [board] Show the board
        [games] Your unfinished games
        [record] A game's record
        [resign] Resign the game
        [draw] Offer a draw, or accept one
        [nodraw] Decline a draw offer
        [abort] Call the game off before both have moved
        [confirm] Play a move that loses at once
        [claim] Claim a game the opponent abandoned
        [hint] The engine's move for you (the bot and the training room)
        [review] A finished game as an animation, with its turning points
        [train] The training room: solo, vs the bot, or vs a friend
        [undo] Take back your last move (training room)
        [rating] Ratings and a chart
        [top] The leaderboard
        [chips] Your chips
        [lang] Choose your language
        [tournament] Make, start or cancel a tournament here
        [join] Join the tournament here
        [withdraw] Leave the tournament here
        [standings] The tournament's standings
       *[rules] The rules of a variant
    }
unseen-player = I have not met @{ $handle } yet: @{ $handle }, send /start to me first, then /accept here.
rules-corners = { $rules }: fill the opponent's corner with your pieces (C1). A move is one step { $diagonal ->
        [yes] in all eight directions
       *[no] orthogonally
    } to an empty square, or a chain of jumps over single pieces of either colour; stop after any jump, never land twice on a square (C2). White moves first; Black always gets the last move, so both completing on the same move is a draw (C5).{ $deadline ->
        [none] {""}
       *[other] {" "}Every piece must have left home by move { $deadline }; after that, a move ending in your own home loses (C6).{ $home_exemption ->
            [yes] {" "}A piece blocked inside its own home, with an opponent piece among those that stop it, does not count against the deadline (C6).
           *[no] {""}
        }
    }{ $limit ->
        [none] {""}
       *[other] {" "}After move { $limit } the side with more pieces in the target wins (C7).
    } The same position three times, or a side with no move, is a draw (C7).{ $no_blocking ->
        [yes] {" "}You may never block an opponent's piece (C8).
       *[no] {" "}Blocking is allowed (C8 does not apply).
    }{ $target_lock ->
        [yes] {" "}A piece that has entered its target may move inside it but never leave it (C10).
       *[no] {""}
    }
rules-damas = Damas (8×8 checkers, Spanish/Portuguese): men move one square diagonally forward and take forward only (D2). Taking is compulsory and goes on while possible; take the most pieces, then the most kings (D4). A man reaching the far rank becomes a king. { $flying ->
        [yes] Kings fly along diagonals any distance and take at a distance (D3).
       *[no] Kings step one square in any diagonal direction (short kings, D3).
    } A side with no pieces or no move loses (D5).

## Ratings

unknown-kind = '{ $word }' is not a rated kind; try { $kinds }.
no-rated-games = Player { $name } has no rated games yet (everyone starts at 1000).
rating-title = { $name }'s ratings:
rating-line = { $kind }: { $rating }{ $rank ->
        [none] {""}
       *[other] {" "}(#{ $rank })
    } · { $monthly } this month{ $monthly_rank ->
        [none] {""}
       *[other] {" "}(#{ $monthly_rank })
    } · { $games ->
        [one] { $games } game
       *[other] { $games } games
    }: { $won } won, { $drawn } drawn, { $lost } lost
chart-title = { $name } · { $kind } rating
chart-footer = { $games ->
        [one] { $games } game
       *[other] { $games } games
    } · now { $rating }
top-scope = Top { $kind }, { $month ->
        [none] all time
       *[other] month { $month }
    }, { $global ->
        [yes] everyone
       *[no] this chat
    }
top-empty = { $scope }: nobody has played a rated game yet.
top-line = { $place }. { $name } { $rating } ({ $games ->
        [one] { $games } game
       *[other] { $games } games
    })
top-you = … { $place }. { $name } { $rating } (you)
chips = { $name } has { $chips ->
        [one] { $chips } chip
       *[other] { $chips } chips
    }.

## Tournaments

tournament-terms = { $format ->
        [arena] Arena
        [swiss] Swiss
       *[roundrobin] Round robin
    } #{ $id }: { $rules } · { $time } · { $rated ->
        [yes] rated
       *[no] casual
    }{ $rounds ->
        [none] {""}
        [one] {" · "}{ $rounds } round
       *[other] {" · "}{ $rounds } rounds
    }{ $minutes ->
        [none] {""}
       *[other] {" · "}{ $minutes } minutes
    }
tournament-card = 🏆 { $terms }
    { $status ->
        [open] Starts at { $starts }. Press Join or send /join to play.
        [running] Under way.
        [finished] Over: see the standings.
       *[cancelled] Cancelled.
    }
    { $count ->
        [0] Nobody has joined yet.
        [one] 1 player: { $players }
       *[other] { $count } players: { $players }
    }
tournament-usage = Make a tournament: /tournament arena|swiss|roundrobin VARIANT TIME [rated|casual], with options: in 10m or at 18:00 (UTC; default in 5 minutes), an arena's length (60m), a Swiss's rounds (5 rounds). Then /tournament start, /tournament cancel, /join, /withdraw, /standings.
tournament-groups-only = Tournaments are played in groups: make one there.
tournament-admins-only = Only the group's admins can make a tournament here.
tournament-busy = Tournament #{ $id } is already on in this chat: one at a time.
tournament-needs-clock = A tournament needs a clock: give a time control like 3+2.
tournament-bad-word = I do not understand “{ $word }” in a tournament: see /tournament.
tournament-bad-start = “{ $text }” is not a start I can read: say in 10m, in 2h or at 18:00 (UTC, within a day).
tournament-bad-rounds = A Swiss has 1 to { $max } rounds.
tournament-bad-length = An arena lasts { $min } to { $max } minutes.
tournament-none = There is no tournament open or under way in this chat.
no-such-tournament = There is no tournament #{ $id } in this chat.
tournament-not-creator = Only whoever made tournament #{ $id } can start or cancel it.
tournament-already-started = Tournament #{ $id } has started already.
tournament-cancelled = Tournament #{ $id } is cancelled{ $why ->
        [few] : fewer than two players came.
       *[creator] {"."}
    }
tournament-joined = { $name } joins tournament #{ $id } ({ $count ->
        [one] 1 player
       *[other] { $count } players
    }).
tournament-back = { $name } is back in tournament #{ $id }.
tournament-already-in = You are in tournament #{ $id } already.
tournament-not-in = You are not playing in tournament #{ $id }.
tournament-withdrew = { $name } withdraws from tournament #{ $id }.
tournament-full = Tournament #{ $id } is full ({ $max } players).
tournament-closed = Tournament #{ $id } is under way and takes no one new.
tournament-started = Tournament #{ $id } starts with { $count } players{ $rounds ->
        [none] {""}
        [one] {" "}over { $rounds } round
       *[other] {" "}over { $rounds } rounds
    }{ $minutes ->
        [none] {""}
       *[other] {" "}for { $minutes } minutes
    }. Good luck!
tournament-round = Tournament #{ $id }, round { $round } of { $rounds }:
tournament-pairing = #{ $game }: { $white } (White) vs { $black } (Black)
tournament-bye = { $name } sits this round out{ $point ->
        [yes] {" "}(a point)
       *[no] {""}
    }
tournament-forfeit = { $winner } wins: { $loser } withdrew
tournament-game-started = Game #{ $id } of tournament #{ $tournament }: { $white } (White) vs { $black } (Black) · { $time } · { $rated ->
        [yes] rated
       *[no] casual
    }. { $white }, your move.
tournament-standings = Tournament #{ $id }{ $status ->
        [final] , final standings:
       *[live] { $round ->
            [none] , standings:
           *[other] , standings after round { $round }:
        }
    }
tournament-change = { $sign ->
        [plus] +{ $delta }
        [minus] −{ $delta }
       *[zero] 0
    }
tournament-line = { $place }. { $name } { $score } · { $marks }{ $change ->
        [none] {""}
       *[other] {" · "}{ $change }
    }{ $performance ->
        [none] {""}
       *[other] {" · "}perf { $performance }
    }{ $paused ->
        [yes] {" "}(paused)
       *[no] {""}
    }
tournament-no-show = Game #{ $id }: { $who } never made a first move and loses it in tournament #{ $tournament }.{ $paused ->
        [yes] {" "}{ $who } is paused: /join to come back.
       *[no] {""}
    }
tournament-over = Tournament #{ $id } is over. The winner: { $winner }! 🏆
tournament-place = { $format ->
        [arena] Arena
        [swiss] Swiss
       *[roundrobin] Round robin
    } #{ $id }: { $place } of { $of }
standings-column = { $column ->
        [place] #
        [name] Player
        [score] Score
        [games] Games
        [change] ±
       *[performance] Perf.
    }
btn-join = Join
btn-withdraw = Withdraw

## Languages

lang-name = { $code ->
        [ru] Русский
        [pt] Português
        [it] Italiano
       *[en] English
    }
lang-set = { $whose ->
        [chat] This chat
       *[you] You
    } { $lang ->
        [none] will get answers in the language of each player's app.
       *[other] will get answers in { $lang }.
    }
lang-unknown = I don't speak '{ $code }'; try one of: { $list } (or auto).
lang-now = Answers here are in { $lang }. /lang CODE changes it: { $list } (or auto).

## The console's own lines

console-welcome = ugolki console — type lines as NAME: text (alice: /challenge @bob), /help for commands, NAME: [Label] to press a button, Ctrl-D to quit.
console-web-at = Game pages: { $url }/g/ and the game's number, e.g. { $url }/g/1 (games of groups only; this console is one).
console-web-game = Game #{ $id } in a browser: { $url }
console-web-seat = { $name } plays there after opening { $url } (once, within { $minutes } minutes)
console-line-shape = write lines as NAME: text, e.g. alice: /challenge @bob
console-bad-name = '{ $name }' is not a name here: letters, digits, _ . - (at most { $max })
console-line-too-long = that line is longer than { $max } bytes; it was ignored
console-not-text = that line is not UTF-8 text; it was ignored
console-no-such-button = there is no [{ $label }] button to press
cmd-bot-level = The bot's level is a number from 1 to { $max }: /play bot 3 classic3x3 5+3
bot-unrated = Games against the bot are unrated and have no opponent to name: leave out @user, rated and stake.
hint = Hint for game #{ $id }: { $recorded }
hint-only-vs-bot = Hints are for games against the bot (/play bot) and the training room (/train), not for games between people.
review-not-over = Game #{ $id } is still being played: /review works on finished games.
review-intro = Game #{ $id }: { $white } – { $black }, { $moves ->
        [one] one move
       *[other] { $moves } moves
    }.
review-tail = A long game: the review covers its last { $shown } plies of { $total }.
turning-point = Move { $move_no }, { $who }: { $played } cost { $whole }.{ $tenth } { $damas ->
        [yes] men
       *[no] steps
    }; the engine prefers { $better }.
turning-point-decisive = Move { $move_no }, { $who }: { $played } { $won ->
        [yes] let a won game go
       *[no] loses the game by force
    }; the engine prefers { $better }.
turning-point-deadline = Move { $move_no }, { $who }: after { $played } more pieces were left at home than moves to take them out by the deadline (move { $deadline }, rule C6); the engine prefers { $better }.
turning-point-deadline-seen = Move { $move_no }, { $who }: { $played } { $won ->
        [yes] lets go a deadline (move { $deadline }, rule C6) the engine sees as won
       *[no] lets the deadline (move { $deadline }, rule C6) turn against them, as far as the engine sees
    }; it prefers { $better }.
review-no-turning-points = No move changed the game by much: no turning points.
solo-turning-point = Move { $move_no }: { $played } cost { $moves ->
        [one] a move
       *[other] { $moves } moves
    }; a shorter way goes { $better }.
cmd-train-vs = After vs, say bot [LEVEL] or @user: /train triangle vs bot 2, /train vs @bob, or /train solo.
train-corners-only = The training room is for Corners variants: /train classic3x3 solo, /train training:triangle,ortho vs bot 3.
train-unrated = The training room is unrated: leave out rated and stake.
solo-started = Training #{ $id }, { $rules }: cross to the far corner in as few moves as you can. { $minimum ->
        [0] No proven minimum is known for this shape.
       *[other] The proven minimum is { $minimum } moves.
    } /hint shows a route, /undo takes a move back.
solo-crossed = Training #{ $id }: { $who } crossed in { $moves } moves. { $minimum ->
        [0] No proven minimum is known for this shape.
       *[other] { $optimal ->
            [yes] That is the proven minimum: a perfect crossing!
           *[no] The proven minimum is { $minimum } moves.
        }
    }
solo-not-crossed = Training #{ $id }: { $moves } moves and the corner is not full; the attempt is over. /train solo to try again.
solo-abandoned = Training #{ $id } abandoned; it does not count.
solo-hint = Hint for training #{ $id }: { $recorded }, then { $left } more { $left ->
        [one] move
       *[other] moves
    } ({ $shortest ->
        [yes] a shortest route
       *[no] the shortest route the engine found; a shorter one may exist
    }).
solo-no-route = The engine found no way across from here in game #{ $id }: try /undo.
undone = Game #{ $id }: { $who } took back { $plies } { $plies ->
        [one] move
       *[other] moves
    }.
undo-only-training = Takebacks are for the training room (/train), not for rated or casual games.
undo-nothing = Nothing to take back in game #{ $id }.
undo-opponent-moved = Your opponent has already replied: you can take back only your own last move, before the answer.

## The public web pages
web-game-title = Game #{ $id }: { $white } – { $black }
web-moves = Moves
web-resign-sure = Sure? Tap again to resign
web-no-moves = No moves yet.
web-at-ply = After { $ply } of { $plies } { $plies ->
        [one] ply
       *[other] plies
    }
web-first = Start
web-previous = Back
web-next = Forward
web-latest = Now
web-live = The game is on: this page follows every move (without script, it reloads every { $seconds } seconds).
web-download-pdn = Download the record (PDN)
web-replay-gif = Animated replay (GIF)
web-no-game = There is no public game #{ $id }. Games in private chats are their players' own.
web-top-title = Leaderboards
web-open-from-chat = Open a game from its board in the chat, or from a link to it.
web-no-page = There is no such page here. Games are at /g/ and their number, players at /p/, tournaments at /t/; the leaderboards are on the first page.
web-seat-gone = This sign-in link has been used or is too old. Each game's links are printed in the console when it starts.
web-activity-signing-in = Signing you in through Discord…
web-not-seated = Only the game's players move here: open the board from the game's chat (or from the console's sign-in link).
web-too-many = Too many requests from your address: try again in { $seconds } s.
web-game-at = The game's page: { $url }
web-top-at = Every leaderboard: { $url }
web-no-player = There is no player #{ $id }.
web-player-title = { $name }'s ratings
web-player-games = Games in groups
web-no-public-games = No games in groups yet.
web-game-line = #{ $id } { $white } – { $black }, { $rules }{ $outcome ->
        [none] {" "}· being played
       *[other] {" "}— { $outcome }
    }
web-no-tournament = There is no tournament #{ $id } to show.
web-tournament-at = The tournament on the web: { $url }
web-tournament-games = Games
web-tournament-live = The tournament is on: this page reloads { $seconds ->
        [one] every second
       *[other] every { $seconds } seconds
    }.
