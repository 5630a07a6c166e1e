### Italiano. Stessi messaggi, variabili e selettori del catalogo inglese (core/locales/en/main.ftl).
### Le variabili sono i campi di `Msg` (core/src/words/msg.rs). I colori arrivano come `white` /
### `black`, i sì/no come `yes` / `no`, i valori assenti come `none`.
### Termini (dalla pagina originale delle regole, seeds/corners-rules.it.txt): casa, casa avversaria,
### termine, limite della partita, pedina, passo, salto, catena di salti, bloccare, patta.
### Damas: pedina (man), dama (king), presa (capture), pezzo (pedina o dama).
### I comandi (/accept, /draw, …) e le parole chiave delle sfide (rated, casual, white, flying, …)
### restano in inglese: sono quello che i giocatori scrivono.

## Pezzi di altri messaggi

duration-days = { $days }g { $hours }h
time-none = senza orologio
time-fischer = { $text }
time-per-move = { $text } a mossa
list-or = { $first } o { $second }
game-number = #{ $id }
thread-name = Partita #{ $id }
rules-name = { $family ->
        [damas] Damas ({ $flying ->
            [yes] dame volanti
           *[no] dame non volanti
        })
       *[other] Corners, { $training ->
            [yes] allenamento ({ $family ->
                [classic3x3] classico 3×3
                [classic3x4] classico 3×4
                [classic4x3] classico 3×4 (speculare)
                [diagonal3x3] diagonale 3×3
                [diagonal3x4] diagonale 3×4
                [triangle] casa triangolare
                [square4x4] casa 4×4
                [halma16] Halma 16×16
               *[other] casa personalizzata
            }{ $changed ->
                [yes] ; { $changes }
               *[no] {""}
            })
           *[no] { $family ->
                [classic3x3] classico 3×3
                [classic3x4] classico 3×4
                [classic4x3] classico 3×4 (speculare)
                [diagonal3x3] diagonale 3×3
                [diagonal3x4] diagonale 3×4
                [triangle] casa triangolare
                [square4x4] casa 4×4
                [halma16] Halma 16×16
               *[other] { $family }
            }
        }
    }
room-change = { $change ->
        [solo] da solo
        [ortho] solo mosse ortogonali
        [diag] anche mosse diagonali
        [deadline] termine di uscita: mossa { $value }
        [deadline-off] senza termine di uscita
        [limit] la partita finisce alla mossa { $value }
        [limit-off] senza limite di mosse
        [blocking-on] blocco consentito
        [blocking-off] blocco vietato
        [lock-on] non si esce dalla casa avversaria
        [lock-off] si può uscire dalla casa avversaria
       *[home] una casa propria
    }
kind-name = { $kind ->
        [classic3x3] classico 3×3
        [classic3x4] classico 3×4
        [diagonal3x3] diagonale 3×3
       *[damas] Damas
    }
terms = { $rules } · { $time } · { $rated ->
        [yes] con rating
       *[no] amichevole
    }{ $movetime ->
        [none] {""}
       *[other] {" · "}tempo per mossa { $movetime }
    }{ $monitor ->
        [yes] {" · "}controllo dell'attività
       *[no] {""}
    }{ $stake ->
        [none] {""}
       *[other] {" · "}posta { $stake ->
            [one] { $stake } gettone
           *[other] { $stake } gettoni
        }
    }

## Perché finisce una partita

cause-completed = casa avversaria occupata
cause-both-completed = entrambi hanno occupato la casa avversaria alla mossa { $move_no }
cause-returned-home = { $side ->
        [white] il Bianco
       *[black] il Nero
    } ha riportato una pedina nella propria casa dopo il termine
cause-left-home-late = { $side ->
        [white] il Bianco
       *[black] il Nero
    } non è uscito di casa entro il termine
cause-both-left-home-late = nessuno dei due è uscito di casa entro il termine
cause-limit = limite della partita, pedine nella casa avversaria: { $white } a { $black }
cause-repetition = triplice ripetizione della posizione
cause-no-legal-move = { $side ->
        [white] il Bianco
       *[black] il Nero
    } non ha mosse valide
cause-no-reply = casa avversaria occupata, il Nero non può rispondere
cause-no-pieces = { $side ->
        [white] il Bianco
       *[black] il Nero
    } è rimasto senza pezzi
cause-cannot-move = { $side ->
        [white] il Bianco
       *[black] il Nero
    } non può muovere
cause-flag = { $side ->
        [white] il Bianco
       *[black] il Nero
    } ha esaurito il tempo
cause-resigned = { $side ->
        [white] il Bianco
       *[black] il Nero
    } ha abbandonato
cause-agreed = patta concordata
cause-aborted = interrotta prima che entrambi avessero mosso
cause-chat-gone = annullata: il bot è stato rimosso dalla chat
cause-abandoned = { $side ->
        [white] il Bianco
       *[black] il Nero
    } ha lasciato la partita
cause-no-first-move = { $side ->
        [white] il Bianco
       *[black] il Nero
    } non ha mai fatto la prima mossa
result-line = { $ended ->
        [yes] { $winner ->
            [white] vince il Bianco ({ $cause })
            [black] vince il Nero ({ $cause })
           *[none] patta ({ $cause })
        }
       *[no] in corso
    }

## Perché una mossa viene rifiutata

refused = { $text }: { $reason }
text-empty = la mossa è vuota
text-too-long = la mossa è troppo lunga
text-bad-square = «{ $text }» non è una casella
text-one-square = una mossa indica almeno due caselle
text-bad-number = «{ $text }» non è un numero di casella (1-32)
ill-no-piece-of-yours = non hai nessuna pedina su { $square }
ill-off-board = { $square } non è su questa scacchiera
ill-occupied = la casella { $square } è occupata
ill-mixed = una mossa è un passo o una catena di salti: un passo non si concatena (regola C2)
ill-would-block = così la pedina su { $square } resterebbe bloccata (regola C8)
ill-unreachable = la pedina su { $from } non può arrivare in { $to }: nessun passo né catena di salti ci porta (regola C2)
ill-not-diagonally = { $from }-{ $to } è in diagonale: in questa variante le pedine si muovono e saltano solo in su, in giù, a sinistra e a destra (regola C2)
ill-same-square = { $square }-{ $square } non porta da nessuna parte: una mossa finisce su un'altra casella (regola C2)
ill-not-a-jump = { $from }-{ $to } non è né un passo né un salto (regola C2)
ill-nothing-to-jump = su { $square } non c'è nessuna pedina da saltare (regola C2)
ill-revisit = una catena non può atterrare due volte su { $square } (regola C2)
ill-target-locked = la pedina su { $square } è arrivata nella casa avversaria e non può più uscirne
ill-game-over = la partita è finita
ill-not-playing = { $square } non è una casella di gioco
ill-capture-compulsory = la presa è obbligatoria
ill-quantity = devi prendere il maggior numero di pezzi possibile ({ $count ->
        [one] { $count } pezzo
       *[other] { $count } pezzi
    })
ill-quality = tra le prese di { $count ->
        [one] { $count } pezzo
       *[other] { $count } pezzi
    } devi scegliere quella con più dame ({ $kings ->
        [one] { $kings } dama
       *[other] { $kings } dame
    })
ill-must-continue = la presa deve continuare da { $square }
ill-backward = le pedine muovono e prendono solo in avanti
ill-crowned = una pedina promossa a dama su { $square } si ferma lì: la mossa finisce (D2)
ill-not-a-move = { $from }-{ $to } non è una mossa valida per questo pezzo
ill-nothing-to-take = tra { $from } e { $to } non c'è nessun pezzo avversario da prendere
ill-taken-twice = il pezzo su { $square } è già stato preso in questa mossa
ill-ambiguous = mossa ambigua, indica quale: { $options }

## Varianti

variant-unknown = variante sconosciuta «{ $id }» (prova classic3x3, classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training)
variant-bad-option = opzione di allenamento «{ $option }» non riconosciuta (ortho, diag, deadline=N|off, limit=N|off, blocking=on|off, lock=on|off, home=a1-c3.d1)
variant-bad-home = la forma della casa non è utilizzabile: { $problem }
home-not-a-square = «{ $item }» non è né una casella né un intervallo come a1-c3
home-empty = non ha nessuna casella
home-off-board = { $square } non è sulla scacchiera
home-too-many = troppe caselle ({ $count }): al massimo { $max }
home-both-homes = { $square } sarebbe in tutte e due le case

## Lettura dei comandi

cmd-too-long = Il messaggio è troppo lungo (al massimo { $max ->
        [one] { $max } carattere
       *[other] { $max } caratteri
    }).
cmd-unknown = Comando sconosciuto /{ $name } (vedi /help).
cmd-challenge-word = Non capisco «{ $word }» nella sfida (vedi /help).
cmd-not-a-game-number = «{ $text }» non è un numero di partita.
cmd-extra-word = /{ $command } accetta al massimo un numero: «{ $word }» è di troppo.
no-such-number = Nessuna partita, sfida o torneo ha il numero #{ $typed }.
cmd-move-missing = Dopo /move scrivi la mossa, per esempio /move c3-d4
cmd-moves-missing = Dopo /moves scrivi una casella, per esempio /moves c3
cmd-moves-one-square = /moves mostra le mosse di una sola casella: «{ $word }» è una parola di troppo (es. /moves c3).
cmd-one-game = Indica una sola partita, non due.
cmd-one-time-control = Indica una sola cadenza di gioco, non due.
cmd-two-ways = '{ $first }' e '{ $second }' dicono cose diverse: scegline una.
cmd-name-after-at = Scrivi il nome del giocatore subito dopo la @.
cmd-kings-are-damas = «{ $word }» è un tipo di dama, un'opzione di Damas: scrivi damas { $word }
cmd-movetime-range = movetime vuole un tempo tra 5s e 24h, per esempio movetime 30s
cmd-damas-options = movetime e monitor sono opzioni di Damas.
cmd-not-rated = Le partite «{ $rules }» non valgono per il rating; scrivi casual.
cmd-stake-needs-rated = La posta si mette solo in una partita di Damas con rating: damas rated stake 50
cmd-stake-number = stake vuole un numero di gettoni, per esempio stake 50
cmd-space-before-at = Metti uno spazio prima di @{ $name }: /{ $command } @{ $name }
cmd-bad-mention = «{ $word }» non è un nome: scrivi @nome una volta sola, per esempio @bob

## Pulsanti

btn-accept = Accetta
btn-decline = Rifiuta
btn-cancel = Annulla
btn-resign = Abbandona
btn-offer-draw = Proponi patta
btn-accept-draw = Accetta patta
btn-decline-draw = Rifiuta patta
btn-abort = Interrompi
btn-confirm = Conferma
btn-claim = Rivendica la partita
btn-square = { $square }
btn-back = Indietro
btn-open-board = Apri la scacchiera
help-commands-only = In questo gruppo il bot vede solo i comandi rivolti a lui e le risposte ai suoi messaggi (modalità privacy di Telegram): scrivi /m@{ $bot } c3-d4, oppure rispondi alla scacchiera con la mossa.
help-mentions-only = In questo server il bot non legge i messaggi: gioca con /move (suggerisce le tue mosse) o con i pulsanti sotto la scacchiera. Le mosse scritte funzionano nei messaggi diretti al bot e nei messaggi che menzionano @{ $bot }.
missing-permissions = Non posso ospitare una partita in questo canale: mi mancano { $list }. Un amministratore del server può concederli (Impostazioni server → Ruoli, o i permessi di questo canale).
permission-name = { $permission ->
    [view-channel] Visualizzare il canale
    [send-messages] Inviare messaggi
    [embed-links] Incorporare link
    [attach-files] Allegare file
    [read-message-history] Leggere la cronologia dei messaggi
    [create-public-threads] Creare thread pubblici
   *[send-messages-in-threads] Inviare messaggi nei thread
}
discord-private-help = In questa chat non sono un membro: una partita qui si gioca su un solo messaggio, solo con i pulsanti (niente mosse scritte). Posso rispondere solo a un tocco o a un comando, quindi una bandierina caduta o una mossa automatica si vede al tocco successivo; /games dice sempre come stanno le tue partite.
inline-card-open = { $from } propone una partita: { $terms }. Gioca chi preme per primo Accetta.
inline-card-to = { $from } sfida { $to }: { $terms }. { $to }, premi Accetta per giocare.
inline-card-for-anyone = Gioca chi preme per primo Accetta
inline-card-for = Solo { $to } può accettare
inline-not-ready = Questa sfida è ancora in preparazione: premi di nuovo tra un momento.
inline-card-expired = Questa scheda è troppo vecchia per iniziare una partita: inviane una nuova.
inline-unavailable = Gioca con me in una chat privata
inline-no-training = Stanze di allenamento: /train in chat privata con me
picked = Partita #{ $id }: { $square } può andare in { $list }. Premi dove, o Indietro per un altro pezzo.
button-stale = Questo pulsante non è più valido: la partita è andata avanti.
button-not-yours = Questo pulsante non è per te.

## Sfide

challenge-to = { $from } sfida { $to }: { $terms }{ $wish ->
        [white] {" "}({ $from } gioca col Bianco)
        [black] {" "}({ $from } gioca col Nero)
       *[none] {""}
    } — sfida #{ $id }.{ $pair_limit ->
        [yes] {" "}Amichevole: oggi avete già giocato tra voi le vostre 3 partite con rating (F2).
       *[no] {""}
    } { $buttons ->
        [yes] { $to }: Accetta o Rifiuta qui sotto.
       *[no] { $to }: /accept o /decline.
    } Scade tra { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minuti
    }.
challenge-open = { $from } propone una partita a chiunque sia qui: { $terms }{ $wish ->
        [white] {" "}({ $from } gioca col Bianco)
        [black] {" "}({ $from } gioca col Nero)
       *[none] {""}
    } — sfida #{ $id }. { $buttons ->
        [yes] Premi Accetta per giocare.
       *[no] /accept per giocare.
    } Scade tra { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minuti
    }.
look-alike = Attenzione: il nome { $name } mescola alfabeti diversi, quindi può sembrare quello di qualcun altro.
too-many-challenges = Hai già { $max ->
        [one] { $max } sfida aperta
       *[other] { $max } sfide aperte
    }; aspetta le risposte o annullane una con /cancel (F3).
too-many-games = Stai già giocando { $max } partite; finiscine o abbandonane una prima di iniziarne un'altra.
challenge-rate = Sono più di { $max ->
        [one] { $max } sfida
       *[other] { $max } sfide
    } in un minuto; aspetta un po' (F3).
which-challenge = Hai più sfide aperte: { $list }{ $more ->
    [0] {""}
   *[other] , e altre { $more }
}. Indica quale, per esempio { $decline ->
    [yes] /decline
   *[no] /accept
} { $first }.
and-more = …e altri { $count }
challenge-brief = #{ $id } da { $from } ({ $terms })
challenge-taken = Sfida #{ $id } accettata da { $by }: partita #{ $game }.
self-challenge = Non puoi giocare contro il tuo stesso account.
one-at-a-time = Sfida un giocatore alla volta.
no-challenge-for-you = Qui non c'è nessuna sfida aperta per te.
no-such-challenge = Qui non c'è nessuna sfida #{ $id } aperta.
challenge-for-someone-else = La sfida #{ $id } è per qualcun altro.
own-challenge = È la tua sfida; se hai cambiato idea, { $buttons ->
        [yes] premi Annulla.
       *[no] annullala con /cancel.
    }
challenge-gone = Quella sfida è appena stata accettata, annullata o è scaduta.
declined = { $by } ha rifiutato la sfida #{ $id } di { $challenger }.
only-target-declines = Solo il giocatore sfidato può rifiutare; chi ha lanciato la sfida può annullarla { $buttons ->
        [yes] con il pulsante Annulla.
       *[no] con /cancel.
    }
only-author-cancels = Solo chi ha lanciato la sfida può annullarla.
cancelled = Sfida #{ $id } annullata.
nothing-to-cancel = Qui non hai sfide aperte.
which-to-cancel = Hai più sfide aperte qui: { $list }{ $more ->
    [0] {""}
   *[other] , e altre { $more }
}. Indica quale, per esempio /cancel { $first }.
cancel-brief = #{ $id } ({ $terms })
expired = La sfida #{ $id } di { $challenger } è scaduta.
not-enough-chips = { $who } ha { $has ->
        [one] { $has } gettone
       *[other] { $has } gettoni
    }, non abbastanza per una posta di { $stake }.
stake-not-covered = { $stake ->
        [one] Per questa partita serve { $stake } gettone a testa; uno di voi non ce l'ha più.
       *[other] Per questa partita servono { $stake } gettoni a testa; uno di voi non li ha più.
    }
unknown-player = Non conosco ancora @{ $handle }.

## Partite

game-started = Partita #{ $id }: { $white } (Bianco) contro { $black } (Nero) · { $terms }.{ $pair_limit ->
        [yes] {" "}Amichevole: oggi avete già giocato tra voi le vostre 3 partite con rating (F2).
       *[no] {""}
    } { $white }, tocca a te.
no-first-move = Partita #{ $id } interrotta: { $who } non ha mai fatto la prima mossa (F1); non conta.
already-played = { $recorded } è già stata giocata; ora tocca all'avversario.
too-many-pictures = Hai superato { $max ->
        [one] { $max } richiesta
       *[other] { $max } richieste
    } al minuto tra immagini, suggerimenti e analisi (/hint, /review); aspetta un po'.
record-more = Partita #{ $id }, segue: { $moves }
no-game-here = Non hai partite in questa chat.
several-games = Qui hai più partite ({ $ids }); indica quale col suo numero: /move { $first } c3-d4, /board { $first }, /resign { $first }.
several-games-for = Qui hai più partite ({ $ids }); indica quale col suo numero: /{ $command } { $first }.
several-games-move = Qui hai più partite ({ $ids }); indica quale col suo numero: /move { $first } { $text }, /board { $first }, /resign { $first }.
no-such-game = In questa chat non c'è nessuna partita #{ $id }.
not-your-game = Non stai giocando la partita #{ $id }.
game-is-over = La partita #{ $id } è finita.
not-your-turn = Non è il tuo turno.
confirm-needed = { $recorded } finisce nella tua casa, ma il termine per uscirne era la mossa { $deadline }: una mossa del genere fa perdere subito la partita (regola C6). { $buttons ->
        [yes] Premi Conferma per giocarla comunque.
       *[no] Scrivi /confirm per giocarla comunque.
    }
nothing-to-confirm = Non c'è nessuna mossa in attesa di /confirm.
resign-ask = Abbandonare la partita #{ $id }? Premi di nuovo «{ btn-resign }» entro { $seconds } secondi per abbandonare.
after-move = { $mover } ha giocato { $recorded }.{ $offer_declined ->
        [yes] {" "}La proposta di patta è rifiutata.
       *[no] {""}
    } { $status }
status = Mossa { $move_no }{ $clocks ->
        [none] {""}
       *[other] {" · "}{ $clocks }
    }{ $deadline ->
        [none] {""}
       *[other] {" · "}fuori di casa entro la mossa { $deadline }
    }{ $limit ->
        [none] {""}
       *[other] {" · "}limite { $limit }
    } · muove { $to_move }
status-over = La partita è finita.
status-clocks = { $white } { $white_clock } · { $black } { $black_clock }
board-info = Mossa { $move_no }{ $deadline ->
        [none] {""}
       *[other] {" · "}fuori di casa entro la mossa { $deadline }
    }{ $limit ->
        [none] {""}
       *[other] {" · "}limite { $limit }
    }
board-caption = Partita #{ $id }. { $status }
rules-result = { $winner ->
        [white] Partita #{ $id } finita: vince { $name } (Bianco) — { $cause } ({ $rule }).
        [black] Partita #{ $id } finita: vince { $name } (Nero) — { $cause } ({ $rule }).
       *[none] Partita #{ $id } finita: patta — { $cause } ({ $rule }).
    }
flagged = Partita #{ $id }: { $loser } ha esaurito il tempo — vince { $winner } (T1).
resigned = Partita #{ $id }: { $loser } ha abbandonato — vince { $winner } (T2).
resigned-annulled = Partita #{ $id }: { $loser } ha abbandonato entro le prime 10 mosse — la partita è annullata (R).
rating-changes = Rating: { $changes }.
rating-change = { $name } { $after } ({ $sign ->
        [plus] +
        [minus] −
       *[zero] ±
    }{ $delta })
solo-no-draw = In un solitario non c’è nessuno con cui pattare: /resign abbandona il tentativo.
draw-offered = { $by } propone la patta. { $to }: { $buttons ->
        [yes] accetta o rifiuta con i pulsanti qui sotto.
       *[no] /draw per accettare, /nodraw per rifiutare.
    }
draw-already-offered = Hai già proposto la patta.
draw-agreed = Partita #{ $id }: patta concordata (T2).
no-draw-offer = Non c'è nessuna proposta di patta da rifiutare.
draw-declined = { $by } ha rifiutato la patta.
abort-too-late = Troppo tardi per interrompere: avete già mosso entrambi. Puoi abbandonare con /resign o proporre la patta con /draw.
aborted = Partita #{ $id } interrotta da { $by }; non conta.
not-monitored = La partita #{ $id } non ha il controllo dell'attività.
claim-on-own-turn = Tocca a te muovere; puoi reclamare la partita solo mentre è l'avversario a farti aspettare.
claim-too-early = { $who } non muove da { $idle }; puoi reclamare la partita dopo { $limit }.
idle-notice = Partita #{ $id }: { $idler } non muove da { $idle }. { $other } può reclamare la partita { $buttons ->
        [yes] con il pulsante «Rivendica la partita»
       *[no] con /claim
    } (D6).
abandoned-win = Partita #{ $id }: { $loser } ha lasciato la partita — vince { $winner } (D6).
abandoned-void = Partita #{ $id }: { $loser } ha lasciato la partita entro le prime 10 mosse — la partita è annullata (D6).
auto-moved = Partita #{ $id }: il tempo per la mossa di { $who } è scaduto, quindi il tavolo ha giocato { $recorded } al suo posto (D6).
reminder = { $who }, tocca a te nella partita #{ $id }: ti restano { $left }.
games-none = Non hai partite in corso.
games-line = #{ $id } { $rules } contro { $opponent } — { $my_turn ->
        [yes] tocca a te
       *[no] tocca all'avversario
    }{ $here ->
        [yes] {""}
       *[no] {" "}(in un'altra chat)
    }
record = Partita #{ $id }, { $white } – { $black }, { $rules }: { $moves ->
        [none] ancora nessuna mossa
       *[other] { $moves }
    }{ $outcome ->
        [none] {""}
       *[other] {" "}— { $outcome }
    }
record-result = { $result ->
        [white] vince { $name } (Bianco){ $cause ->
            [none] {""}
           *[other] , { $cause }
        }
        [black] vince { $name } (Nero){ $cause ->
            [none] {""}
           *[other] , { $cause }
        }
        [void] annullata{ $cause ->
            [none] {""}
           *[other] , { $cause }
        }
       *[draw] patta{ $cause ->
            [none] {""}
           *[other] , { $cause }
        }
    }
no-moves-from = Al momento da { $square } non si può muovere.
moves-from = Da { $square } si può andare in { $list }.
bad-square = «{ $text }» non è una casella.
internal-error = Qualcosa è andato storto da parte nostra; non è cambiato nulla. Riprova.
conflict = La partita è cambiata mentre il tuo messaggio veniva elaborato; non è cambiato nulla. Guarda la scacchiera con /board e riprova.
help =
    Corners (Ugolki) e Damas in chat.
    /challenge @utente [VARIANTE | damas [flying|short] [movetime 30s] [monitor]] [10+5 | 30s+2 | 1d | none] [rated|casual] [white|black|random] — senza @utente: può accettare chiunque
    /accept, /decline, /cancel [N] — rispondi a una sfida o ritirala (oppure usa i suoi pulsanti)
    Scrivi le mosse come testo: c3-d4, c3 e5, c3e3e5 (Damas: d3xf5, 11-15). Con più partite: /move N c3-d4
    /moves c3 — dove può andare c3 · /board · /games · /record N
    /resign · /draw (proponi o accetta la patta) · /nodraw · /abort (prima che abbiate mosso entrambi) · /confirm · /claim — oppure i pulsanti sotto la scacchiera
    /rating [@utente] [tipo] — rating e grafico · /top [tipo] [month] [global] — la classifica · /chips
    /rules [variante] — le regole
    /lang [en|ru|it|pt|auto] — la tua lingua (di un admin del gruppo: quella della chat)
    /tournament arena|swiss|roundrobin [variante] [tempo] … — un torneo qui (i suoi admin) · /join · /withdraw · /standings [N]
    /play bot [1-5] [variante] [tempo] [white|black] — gioca contro il motore (senza punteggio) · /hint · /review N — una partita finita come animazione
    /train [variante] [vs bot 1-5 | vs @user | solo] [tempo] — la sala d'allenamento (senza punteggio, ogni variante, con /undo e /hint); solo: attraversa da solo nel minor numero di mosse
    Varianti: classic3x3 (predefinita), classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training:…
option-help = { $option ->
       *[game] Numero della partita (#12)
        [challenge] Numero della sfida
        [opponent] Chi (nessuno: chiunque qui)
        [variant] Gioco e variante
        [time] Cadenza: 10+5, 30s+2, 1d o none
        [rated] Valida per la classifica o amichevole
        [color] Il tuo colore
        [stake] Gettoni in palio (dama con classifica)
        [move] La mossa: c3-d4, d3xf5, 11-15
        [square] Una casella: c3
        [player] Di chi è il punteggio
        [kind] classic3x3, classic3x4, diagonal3x3, damas
        [month] Solo questo mese
        [global] Tutti, non solo questa chat
        [language] en, ru, pt, it o auto
        [against] Contro chi: nessuno (solo), il bot o il giocatore che nomini
        [friend] Un amico con cui allenarsi
        [level] Il livello del bot
        [room] classic3x3, triangle, … o training:classic3x3,diag,home=a1-b2
        [train-time] Cadenza: 10+5, 30s+2, 1d o none (predefinita)
        [bot-variant] classic3x3, triangle, halma16, damas, …
        [what] arena, swiss, roundrobin, start o cancel
        [settings] rated, in 10m, at 18:00, 60m, 5 rounds
        [tournament] Numero del torneo
    }
command-help = { $command ->
        [start] Inizia da qui: cosa fa il bot
        [help] Tutti i comandi
        [challenge] Sfida un giocatore (o chiunque sia qui) a una partita
        [play] Gioca contro il bot: /play bot 3 classic3x3 5+3
        [accept] Accetta una sfida
        [decline] Rifiuta una sfida
        [cancel] Annulla la tua sfida
        [m] Gioca una mossa: /m c3-d4
        [move] Gioca una mossa: /move c3-d4
        [moves] Dove può andare una pedina: /moves c3
        [board] Mostra la scacchiera
        [games] Le tue partite in corso
        [record] Le mosse di una partita
        [resign] Abbandona la partita
        [draw] Proponi la patta o accettala
        [nodraw] Rifiuta una proposta di patta
        [abort] Interrompi la partita prima che abbiate mosso entrambi
        [confirm] Gioca una mossa che fa perdere subito
        [claim] Reclama una partita lasciata dall'avversario
        [hint] La mossa del motore per te (il bot e la sala d'allenamento)
        [review] Una partita finita come animazione, con i momenti decisivi
        [train] La sala d'allenamento: da solo, contro il bot o contro un amico
        [undo] Ritira la tua ultima mossa (sala d'allenamento)
        [rating] Rating e grafico
        [top] La classifica
        [chips] I tuoi gettoni
        [lang] Scegli la tua lingua
        [tournament] Crea, avvia o annulla un torneo qui
        [join] Entra nel torneo di qui
        [withdraw] Lascia il torneo di qui
        [standings] La classifica del torneo
       *[rules] Le regole di una variante
    }
unseen-player = Non conosco ancora @{ $handle }: @{ $handle }, scrivimi prima /start, poi usa /accept qui.
rules-corners = { $rules }: vince chi per primo occupa tutte le caselle della casa avversaria con le proprie pedine (C1). Una mossa è un passo { $diagonal ->
        [yes] in una delle otto direzioni
       *[no] in verticale o in orizzontale
    } su una casella vicina libera, oppure una catena di salti sopra singole pedine di qualsiasi colore; ci si può fermare dopo uno qualsiasi dei salti, e una catena non può atterrare due volte sulla stessa casella (C2). Muove per primo il Bianco; il Nero ha sempre l'ultima mossa, quindi se entrambi occupano la casa avversaria nella stessa mossa la partita è patta (C5).{ $deadline ->
        [none] {""}
       *[other] {" "}Tutte le pedine devono uscire di casa entro { $deadline ->
            [one] { $deadline } mossa
           *[other] { $deadline } mosse
        }; dopo il termine, una mossa che riporta una pedina nella propria casa fa perdere la partita (C6).{ $home_exemption ->
            [yes] {" "}Una pedina bloccata dall'avversario nella propria casa non viola il termine di uscita (C6).
           *[no] {""}
        }
    }{ $limit ->
        [none] {""}
       *[other] {" "}Dopo la mossa { $limit } vince chi ha più pedine nella casa avversaria; a parità è patta (C7).
    } Se la stessa posizione si ripete tre volte, o se chi ha il tratto non ha nessuna mossa, la partita è patta (C7).{ $no_blocking ->
        [yes] {" "}Vietato bloccare: non si può fare una mossa dopo la quale una pedina avversaria resti bloccata (C8).
       *[no] {" "}Bloccare è consentito (la regola C8 non si applica).
    }{ $target_lock ->
        [yes] {" "}Una pedina entrata nella casa avversaria può muoversi al suo interno ma non può più uscirne (C10).
       *[no] {""}
    }
rules-damas = Damas (dama 8×8 spagnola/portoghese): le pedine muovono di una casella in diagonale in avanti e prendono solo in avanti (D2). La presa è obbligatoria e continua finché è possibile; si deve prendere il maggior numero di pezzi e, a parità, di dame (D4). La pedina che raggiunge l'ultima riga diventa dama. { $flying ->
        [yes] Le dame volano lungo le diagonali per qualsiasi distanza e prendono anche a distanza (D3).
       *[no] Le dame si muovono di una casella in diagonale, in avanti o all'indietro (dame non volanti, D3).
    } Chi resta senza pezzi o senza mosse perde (D5).

## Rating

unknown-kind = «{ $word }» non è un tipo di partita con rating; prova { $kinds }.
no-rated-games = Il giocatore { $name } non ha ancora partite con rating (si parte tutti da 1000).
rating-title = Rating di { $name }:
rating-line = { $kind }: { $rating }{ $rank ->
        [none] {""}
       *[other] {" "}(#{ $rank })
    } · { $monthly } questo mese{ $monthly_rank ->
        [none] {""}
       *[other] {" "}(#{ $monthly_rank })
    } · { $games ->
        [one] { $games } partita
       *[other] { $games } partite
    }: { $won } { $won ->
        [one] vinta
       *[other] vinte
    }, { $drawn } { $drawn ->
        [one] patta
       *[other] patte
    }, { $lost } { $lost ->
        [one] persa
       *[other] perse
    }
chart-title = { $name } · rating { $kind }
chart-footer = { $games ->
        [one] { $games } partita
       *[other] { $games } partite
    } · ora { $rating }
top-scope = Classifica { $kind } { $month ->
        [none] generale
       *[other] del mese { $month }
    } { $global ->
        [yes] (tutti i giocatori)
       *[no] (questa chat)
    }
top-empty = { $scope }: nessuno ha ancora giocato una partita con rating.
top-line = { $place }. { $name } { $rating } ({ $games ->
        [one] { $games } partita
       *[other] { $games } partite
    })
top-you = … { $place }. { $name } { $rating } (tu)
chips = { $name } ha { $chips ->
        [one] { $chips } gettone
       *[other] { $chips } gettoni
    }.

## Tornei

tournament-terms = { $format ->
        [arena] Arena
        [swiss] Svizzero
       *[roundrobin] Girone all'italiana
    } #{ $id }: { $rules } · { $time } · { $rated ->
        [yes] con rating
       *[no] amichevole
    }{ $rounds ->
        [none] {""}
        [one] {" · "}{ $rounds } turno
       *[other] {" · "}{ $rounds } turni
    }{ $minutes ->
        [none] {""}
       *[other] {" · "}{ $minutes } minuti
    }
tournament-card = 🏆 { $terms }
    { $status ->
        [open] Inizia alle { $starts }. Premi Partecipa o invia /join per giocare.
        [running] In corso.
        [finished] Finito: vedi la classifica.
       *[cancelled] Annullato.
    }
    { $count ->
        [0] Non si è ancora iscritto nessuno.
        [one] 1 giocatore: { $players }
       *[other] { $count } giocatori: { $players }
    }
tournament-usage = Crea un torneo: /tournament arena|swiss|roundrobin VARIANTE TEMPO [rated|casual], con opzioni: in 10m o at 18:00 (UTC; di norma tra 5 minuti), la durata di un'arena (60m), i turni di uno svizzero (5 rounds). Poi /tournament start, /tournament cancel, /join, /withdraw, /standings.
tournament-groups-only = I tornei si giocano nei gruppi: crealo lì.
tournament-admins-only = Solo gli amministratori del gruppo possono creare un torneo qui.
tournament-busy = In questa chat c'è già il torneo #{ $id }: uno alla volta.
tournament-needs-clock = Un torneo vuole un orologio: indica un tempo come 3+2.
tournament-bad-word = Non capisco “{ $word }” in un torneo: vedi /tournament.
tournament-bad-start = “{ $text }” non è un inizio che so leggere: di' in 10m, in 2h o at 18:00 (UTC, entro un giorno).
tournament-bad-rounds = Uno svizzero ha da 1 a { $max } turni.
tournament-bad-length = Un'arena dura da { $min } a { $max } minuti.
tournament-none = In questa chat non c'è un torneo aperto o in corso.
no-such-tournament = In questa chat non c'è nessun torneo #{ $id }.
tournament-not-creator = Solo chi ha creato il torneo #{ $id } può avviarlo o annullarlo.
tournament-already-started = Il torneo #{ $id } è già iniziato.
tournament-cancelled = Il torneo #{ $id } è annullato{ $why ->
        [few] : sono venuti meno di due giocatori.
       *[creator] {"."}
    }
tournament-joined = { $name } entra nel torneo #{ $id } ({ $count ->
        [one] 1 giocatore
       *[other] { $count } giocatori
    }).
tournament-back = { $name } è di nuovo nel torneo #{ $id }.
tournament-already-in = Sei già nel torneo #{ $id }.
tournament-not-in = Non giochi nel torneo #{ $id }.
tournament-withdrew = { $name } si ritira dal torneo #{ $id }.
tournament-full = Il torneo #{ $id } è al completo ({ $max } giocatori).
tournament-closed = Il torneo #{ $id } è in corso e non accetta nuovi giocatori.
tournament-started = Il torneo #{ $id } inizia con { $count } giocatori{ $rounds ->
        [none] {""}
        [one] {" "}su { $rounds } turno
       *[other] {" "}su { $rounds } turni
    }{ $minutes ->
        [none] {""}
       *[other] {" "}per { $minutes } minuti
    }. Buona fortuna!
tournament-round = Torneo #{ $id }, turno { $round } di { $rounds }:
tournament-pairing = #{ $game }: { $white } (Bianco) contro { $black } (Nero)
tournament-bye = { $name } riposa in questo turno{ $point ->
        [yes] {" "}(un punto)
       *[no] {""}
    }
tournament-forfeit = { $winner } vince: { $loser } si è ritirato
tournament-game-started = Partita #{ $id } del torneo #{ $tournament }: { $white } (Bianco) contro { $black } (Nero) · { $time } · { $rated ->
        [yes] con rating
       *[no] amichevole
    }. { $white }, tocca a te.
tournament-standings = Torneo #{ $id }{ $status ->
        [final] , classifica finale:
       *[live] { $round ->
            [none] , classifica:
           *[other] , classifica dopo il turno { $round }:
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
       *[other] {" · "}perf. { $performance }
    }{ $paused ->
        [yes] {" "}(in pausa)
       *[no] {""}
    }
tournament-no-show = Partita #{ $id }: { $who } non ha mai fatto la prima mossa e la perde nel torneo #{ $tournament }.{ $paused ->
        [yes] {" "}{ $who } è in pausa: /join per tornare.
       *[no] {""}
    }
tournament-over = Il torneo #{ $id } è finito. Vince { $winner }! 🏆
tournament-place = { $format ->
        [arena] Arena
        [swiss] Svizzero
       *[roundrobin] Girone all'italiana
    } #{ $id }: { $place }º su { $of }
standings-column = { $column ->
        [place] N.
        [name] Giocatore
        [score] Punti
        [games] Partite
        [change] ±
       *[performance] Prest.
    }
btn-join = Partecipa
btn-withdraw = Ritirati

## Lingue

lang-name = { $code ->
        [ru] Русский
        [pt] Português
        [it] Italiano
       *[en] English
    }
lang-set = { $whose ->
        [chat] { $lang ->
            [none] In questa chat risponderò nella lingua dell'app di ciascun giocatore.
           *[other] Lingua di questa chat: { $lang }.
        }
       *[you] { $lang ->
            [none] Ti risponderò nella lingua della tua app.
           *[other] La tua lingua: { $lang }.
        }
    }
lang-unknown = Non parlo «{ $code }»; prova uno di questi codici: { $list } (oppure auto).
lang-now = Lingua delle risposte qui: { $lang }. Per cambiarla: /lang CODICE (uno tra { $list }, oppure auto).

## Righe della console

console-welcome = console di ugolki — scrivi le righe come NOME: testo (alice: /challenge @bob), /help per i comandi, NOME: [Etichetta] per premere un pulsante, Ctrl-D per uscire.
console-web-at = Pagine delle partite: { $url }/g/ e il numero della partita, p. es. { $url }/g/1 (solo partite nei gruppi; questa console è uno).
console-web-game = Partita #{ $id } nel browser: { $url }
console-web-seat = { $name } gioca lì dopo aver aperto { $url } (una volta, entro { $minutes } minuti)
console-line-shape = scrivi le righe come NOME: testo, per esempio alice: /challenge @bob
console-bad-name = «{ $name }» non è un nome valido qui: lettere, cifre, _ . - (al massimo { $max ->
        [one] { $max } carattere
       *[other] { $max } caratteri
    })
console-line-too-long = la riga supera i { $max } byte; è stata ignorata
console-not-text = la riga non è testo UTF-8; è stata ignorata
console-no-such-button = non c'è nessun pulsante [{ $label }] da premere
cmd-bot-level = Il livello del bot è un numero da 1 a { $max }: /play bot 3 classic3x3 5+3
bot-unrated = Le partite contro il bot non contano per il punteggio e non hanno un avversario da nominare: togli @user, rated e stake.
hint = Suggerimento per la partita #{ $id }: { $recorded }
hint-only-vs-bot = I suggerimenti sono per le partite contro il bot (/play bot) e per la sala d'allenamento (/train), non tra persone.
review-not-over = La partita #{ $id } è ancora in corso: /review è per le partite finite.
review-intro = Partita #{ $id }: { $white } – { $black }, { $moves ->
        [one] una mossa
       *[other] { $moves } mosse
    }.
review-tail = Una partita lunga: la revisione copre le sue ultime { $shown } semimosse su { $total }.
turning-point = Mossa { $move_no }, { $who }: { $played } è costata { $whole },{ $tenth } { $damas ->
        [yes] pedine
       *[no] passi
    }; il motore preferisce { $better }.
turning-point-decisive = Mossa { $move_no }, { $who }: { $played } { $won ->
        [yes] ha lasciato sfuggire una partita vinta
       *[no] perde la partita per forza
    }; il motore preferisce { $better }.
turning-point-deadline = Mossa { $move_no }, { $who }: dopo { $played } restavano nella propria casa più pedine che mosse per farle uscire entro il termine (mossa { $deadline }, regola C6); il motore preferisce { $better }.
turning-point-deadline-seen = Mossa { $move_no }, { $who }: { $played } { $won ->
        [yes] lascia sfuggire il termine (mossa { $deadline }, regola C6) che il motore vede vinto
       *[no] lascia che il termine (mossa { $deadline }, regola C6) volga a sfavore, per quanto vede il motore
    }; il motore preferisce { $better }.
review-no-turning-points = Nessuna mossa ha cambiato molto la partita: nessun momento decisivo.
solo-turning-point = Mossa { $move_no }: { $played } è costata { $moves ->
        [one] una mossa
       *[other] { $moves } mosse
    }; una via più corta passa per { $better }.
cmd-train-vs = Dopo vs, scrivi bot [LIVELLO] o @user: /train triangle vs bot 2, /train vs @bob o /train solo.
train-corners-only = La sala d'allenamento è per le varianti degli Angoli: /train classic3x3 solo, /train training:triangle,ortho vs bot 3.
train-unrated = La sala d'allenamento è senza punteggio: togli rated e stake.
solo-started = Allenamento #{ $id }, { $rules }: attraversa fino all'angolo opposto nel minor numero di mosse. { $minimum ->
        [0] Non si conosce un minimo dimostrato per questa forma.
       *[other] Il minimo dimostrato è di { $minimum } mosse.
    } /hint mostra un percorso, /undo ritira una mossa.
solo-crossed = Allenamento #{ $id }: { $who } ha attraversato in { $moves } mosse. { $minimum ->
        [0] Non si conosce un minimo dimostrato per questa forma.
       *[other] { $optimal ->
            [yes] È il minimo dimostrato: una traversata perfetta!
           *[no] Il minimo dimostrato è di { $minimum } mosse.
        }
    }
solo-not-crossed = Allenamento #{ $id }: { $moves } mosse e l'angolo non è pieno; il tentativo è finito. /train solo per riprovare.
solo-abandoned = Allenamento #{ $id } abbandonato; non conta.
solo-hint = Suggerimento per l'allenamento #{ $id }: { $recorded }, poi altre { $left } { $left ->
        [one] mossa
       *[other] mosse
    } ({ $shortest ->
        [yes] un percorso più breve
       *[no] il percorso più breve trovato dal motore; potrebbe essercene uno più breve
    }).
solo-no-route = Il motore non ha trovato un percorso da qui nella partita #{ $id }: prova /undo.
undone = Partita #{ $id }: { $who } ha ritirato { $plies } { $plies ->
        [one] mossa
       *[other] mosse
    }.
undo-only-training = Ritirare le mosse è solo per la sala d'allenamento (/train), non per le partite con o senza punteggio.
undo-nothing = Niente da ritirare nella partita #{ $id }.
undo-opponent-moved = L'avversario ha già risposto: puoi ritirare solo la tua ultima mossa, prima della risposta.

## Le pagine web pubbliche
web-game-title = Partita n. { $id }: { $white } – { $black }
web-moves = Mosse
web-resign-sure = Sicuro? Tocca di nuovo per abbandonare
web-no-moves = Ancora nessuna mossa.
web-at-ply = Dopo { $ply } di { $plies } { $plies ->
        [one] semimossa
       *[other] semimosse
    }
web-first = Inizio
web-previous = Indietro
web-next = Avanti
web-latest = Adesso
web-live = La partita è in corso: questa pagina segue ogni mossa (senza script si ricarica ogni { $seconds } secondi).
web-download-pdn = Scarica la partita (PDN)
web-replay-gif = Replay animato (GIF)
web-no-game = Non c'è nessuna partita pubblica n. { $id }. Le partite nelle chat private appartengono ai loro giocatori.
web-top-title = Classifiche
web-open-from-chat = Apri una partita dalla sua scacchiera nella chat, o da un link alla partita.
web-no-page = Questa pagina non esiste. Le partite sono in /g/ col loro numero, i giocatori in /p/, i tornei in /t/; le classifiche sono nella prima pagina.
web-seat-gone = Questo link di accesso è già stato usato o è troppo vecchio. I link di ogni partita sono stampati nella console quando comincia.
web-activity-signing-in = Accesso tramite Discord in corso…
web-not-seated = Qui muovono solo i giocatori della partita: apri la scacchiera dalla chat della partita (o dal link di accesso della console).
web-too-many = Troppe richieste dal tuo indirizzo: riprova tra { $seconds } s.
web-game-at = La pagina della partita: { $url }
web-top-at = Tutte le classifiche: { $url }
web-no-player = Non c'è nessun giocatore n. { $id }.
web-player-title = Rating di { $name }
web-player-games = Partite nei gruppi
web-no-public-games = Ancora nessuna partita nei gruppi.
web-game-line = n. { $id } { $white } – { $black }, { $rules }{ $outcome ->
        [none] {" "}· in corso
       *[other] {" "}— { $outcome }
    }
web-no-tournament = Non c'è nessun torneo n. { $id } da mostrare.
web-tournament-at = Il torneo sul web: { $url }
web-tournament-games = Partite
web-tournament-live = Il torneo è in corso: questa pagina si ricarica { $seconds ->
        [one] ogni secondo
       *[other] ogni { $seconds } secondi
    }.
