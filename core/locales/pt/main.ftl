### Português: o catálogo em português (neutro, para leitores do Brasil e de Portugal).
### Mesmas mensagens, variáveis e chaves de seleção que o catálogo inglês (en/main.ftl).
### Termos das páginas de regras originais (shared/seeds): Corners — «casa», «prazo», «peça»,
### «lance», «passo», «salto», «cadeia de saltos», «casa adversária»; Damas — «pedra», «peão»,
### «dama», «captura», «lei da quantidade», «lei da qualidade», «jogada».
### O plural «one» do pt inclui o 0 (CLDR): onde pode haver zero, a variante [0] usa o plural.

## Pieces of other messages

duration-days = { $days }d { $hours }h
time-none = sem relógio
time-fischer = { $text }
time-per-move = { $text } por lance
list-or = { $first } ou { $second }
game-number = #{ $id }
thread-name = Partida #{ $id }
rules-name = { $family ->
        [damas] Damas ({ $flying ->
            [yes] dama de várias casas
           *[no] dama de uma casa
        })
       *[other] Corners, { $training ->
            [yes] sala de treino ({ $family ->
                [classic3x3] clássico 3×3
                [classic3x4] clássico 3×4
                [classic4x3] clássico 3×4 (espelhado)
                [diagonal3x3] diagonal 3×3
                [diagonal3x4] diagonal 3×4
                [triangle] casa triangular
                [square4x4] casa 4×4
                [halma16] Halma 16×16
               *[other] casa personalizada
            }{ $changed ->
                [yes] ; { $changes }
               *[no] {""}
            })
           *[no] { $family ->
                [classic3x3] clássico 3×3
                [classic3x4] clássico 3×4
                [classic4x3] clássico 3×4 (espelhado)
                [diagonal3x3] diagonal 3×3
                [diagonal3x4] diagonal 3×4
                [triangle] casa triangular
                [square4x4] casa 4×4
                [halma16] Halma 16×16
               *[other] { $family }
            }
        }
    }
room-change = { $change ->
        [solo] sozinho
        [ortho] só lances ortogonais
        [diag] também lances diagonais
        [deadline] sair de casa até o lance { $value }
        [deadline-off] sem prazo
        [limit] a partida acaba no lance { $value }
        [limit-off] sem limite de lances
        [blocking-on] bloqueio permitido
        [blocking-off] bloqueio proibido
        [lock-on] não se sai da casa adversária
        [lock-off] pode-se sair da casa adversária
       *[home] casa própria
    }
kind-name = { $kind ->
        [classic3x3] clássico 3×3
        [classic3x4] clássico 3×4
        [diagonal3x3] diagonal 3×3
       *[damas] Damas
    }
terms = { $rules } · { $time } · { $rated ->
        [yes] com rating
       *[no] casual
    }{ $movetime ->
        [none] {""}
       *[other] {" · "}tempo de jogada { $movetime }
    }{ $monitor ->
        [yes] {" · "}monitor de atividade
       *[no] {""}
    }{ $stake ->
        [none] {""}
       *[other] {" · "}aposta de { $stake ->
            [one] { $stake } ficha
           *[other] { $stake } fichas
        }
    }

## Why games end

cause-completed = casa adversária preenchida
cause-both-completed = ambos preencheram a casa adversária no lance { $move_no }
cause-returned-home = { $side ->
        [white] as brancas trouxeram
       *[black] as pretas trouxeram
    } uma peça de volta para casa depois do prazo
cause-left-home-late = { $side ->
        [white] as brancas não saíram
       *[black] as pretas não saíram
    } de casa no prazo
cause-both-left-home-late = nenhum dos dois saiu de casa no prazo
cause-limit = limite da partida, { $white } a { $black } na casa adversária
cause-repetition = posição repetida três vezes
cause-no-legal-move = { $side ->
        [white] as brancas não têm
       *[black] as pretas não têm
    } nenhum lance
cause-no-reply = casa adversária preenchida, as pretas não podem responder
cause-no-pieces = { $side ->
        [white] as brancas ficaram
       *[black] as pretas ficaram
    } sem pedras
cause-cannot-move = { $side ->
        [white] as brancas não podem
       *[black] as pretas não podem
    } fazer nenhum movimento
cause-flag = { $side ->
        [white] as brancas ficaram
       *[black] as pretas ficaram
    } sem tempo
cause-resigned = { $side ->
        [white] as brancas desistiram
       *[black] as pretas desistiram
    }
cause-agreed = empate por acordo
cause-aborted = abortada antes de ambos jogarem
cause-chat-gone = anulada: o bot foi removido do chat
cause-abandoned = { $side ->
        [white] as brancas abandonaram
       *[black] as pretas abandonaram
    } a partida
cause-no-first-move = { $side ->
        [white] as brancas não fizeram
       *[black] as pretas não fizeram
    } o primeiro lance
result-line = { $ended ->
        [yes] { $winner ->
            [white] as brancas vencem ({ $cause })
            [black] as pretas vencem ({ $cause })
           *[none] empate ({ $cause })
        }
       *[no] em andamento
    }

## Why a move is refused

refused = { $text }: { $reason }
text-empty = o lance está vazio
text-too-long = o lance é longo demais
text-bad-square = '{ $text }' não é uma casa
text-one-square = um lance indica pelo menos duas casas
text-bad-number = '{ $text }' não é um número de casa (1-32)
ill-no-piece-of-yours = não há nenhuma peça sua em { $square }
ill-off-board = { $square } não está neste tabuleiro
ill-occupied = a casa { $square } está ocupada
ill-mixed = um lance é um passo ou uma cadeia de saltos: um passo não se encadeia (regra C2)
ill-would-block = esse lance bloquearia a peça em { $square } (regra C8)
ill-unreachable = a peça em { $from } não pode chegar a { $to }: nenhum passo nem cadeia de saltos leva até lá (regra C2)
ill-not-diagonally = { $from }-{ $to } é na diagonal: nesta variante as peças andam e saltam só para cima, para baixo, para a esquerda e para a direita (regra C2)
ill-same-square = { $square }-{ $square } não leva a lugar nenhum: um lance termina em outra casa (regra C2)
ill-not-a-jump = { $from }-{ $to } não é nem um passo nem um salto (regra C2)
ill-nothing-to-jump = não há nenhuma peça em { $square } para saltar por cima (regra C2)
ill-revisit = uma cadeia não pode passar duas vezes pela mesma casa ({ $square }) (regra C2)
ill-target-locked = a peça em { $square } já chegou à casa adversária e não pode mais sair dela
ill-game-over = a partida já terminou
ill-not-playing = { $square } não é uma casa de jogo
ill-capture-compulsory = a captura é obrigatória
ill-quantity = lei da quantidade: é obrigatório capturar o maior número possível de pedras ({ $count })
ill-quality = lei da qualidade: entre as capturas de { $count ->
        [one] { $count } pedra
       *[other] { $count } pedras
    }, é obrigatório capturar o maior número possível de damas ({ $kings })
ill-must-continue = a captura deve seguir a partir de { $square }
ill-backward = os peões só andam e capturam para a frente
ill-crowned = um peão coroado em { $square } para ali: o lance termina (D2)
ill-not-a-move = { $from }-{ $to } não é um movimento possível desta pedra
ill-nothing-to-take = não há nenhuma pedra adversária para capturar entre { $from } e { $to }
ill-taken-twice = a pedra em { $square } já foi capturada nesta jogada
ill-ambiguous = lance ambíguo; escreva qual deles: { $options }

## Variants

variant-unknown = variante '{ $id }' desconhecida (opções: classic3x3, classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training)
variant-bad-option = opção de treino '{ $option }' não reconhecida (ortho, diag, deadline=N|off, limit=N|off, blocking=on|off, lock=on|off, home=a1-c3.d1)
variant-bad-home = essa forma de casa não pode ser usada: { $problem }
home-not-a-square = '{ $item }' não é uma casa do tabuleiro nem um intervalo como a1-c3
home-empty = está vazia
home-off-board = { $square } está fora do tabuleiro
home-too-many = tem { $count ->
        [one] { $count } casa
       *[other] { $count } casas
    }, mais do que o máximo de { $max }
home-both-homes = { $square } ficaria nas casas dos dois lados

## Reading commands

cmd-too-long = Essa mensagem é longa demais (no máximo { $max ->
        [one] { $max } caractere
       *[other] { $max } caracteres
    }).
cmd-unknown = Comando desconhecido: /{ $name } (veja /help).
cmd-challenge-word = Não entendi '{ $word }' no desafio (veja /help).
cmd-not-a-game-number = '{ $text }' não é um número de partida.
cmd-extra-word = /{ $command } aceita no máximo um número: '{ $word }' está a mais.
no-such-number = Nenhuma partida, desafio ou torneio tem o número #{ $typed }.
cmd-move-missing = /move precisa de um lance, por exemplo /move c3-d4
cmd-moves-missing = /moves precisa de uma casa, por exemplo /moves c3
cmd-moves-one-square = /moves mostra os lances de uma só casa: '{ $word }' é uma palavra a mais (ex.: /moves c3).
cmd-one-game = Indique um jogo só, não dois.
cmd-one-time-control = Indique um tempo só (por exemplo 10+5), não dois.
cmd-two-ways = '{ $first }' e '{ $second }' dizem coisas diferentes: escolha uma.
cmd-name-after-at = Escreva o nome do jogador logo depois do @.
cmd-kings-are-damas = O tipo de dama '{ $word }' é uma opção das Damas: escreva damas { $word }
cmd-movetime-range = movetime precisa de um tempo entre 5s e 24h, por exemplo movetime 30s
cmd-damas-options = movetime e monitor são opções das Damas.
cmd-not-rated = { $rules }: esta variante não vale rating; escreva casual.
cmd-stake-needs-rated = A aposta só é possível numa partida de Damas com rating: damas rated stake 50
cmd-stake-number = stake precisa de um número de fichas, por exemplo stake 50
cmd-space-before-at = Coloque um espaço antes de @{ $name }: /{ $command } @{ $name }
cmd-bad-mention = '{ $word }' não é um nome: escreva @nome uma vez só, por exemplo @bob

## Buttons (the console and outside checks rely on these English labels)

btn-accept = Aceitar
btn-decline = Recusar
btn-cancel = Cancelar
btn-resign = Desistir
btn-offer-draw = Propor empate
btn-accept-draw = Aceitar empate
btn-decline-draw = Recusar empate
btn-abort = Abortar
btn-confirm = Confirmar
btn-claim = Reivindicar a partida
btn-square = { $square }
btn-back = Voltar
btn-open-board = Abrir o tabuleiro
help-commands-only = Neste grupo o bot só vê os comandos dirigidos a ele e as respostas às suas mensagens (modo de privacidade do Telegram): escreva /m@{ $bot } c3-d4, ou responda ao tabuleiro com o lance.
help-mentions-only = Neste servidor o bot não lê as mensagens: jogue com /move (ele sugere os seus lances) ou com os botões sob o tabuleiro. Lances digitados funcionam em mensagens diretas ao bot e em mensagens que mencionam @{ $bot }.
missing-permissions = Não consigo hospedar uma partida neste canal: faltam-me { $list }. Um administrador do servidor pode concedê-las (Configurações do servidor → Cargos, ou as permissões deste canal).
permission-name = { $permission ->
    [view-channel] Ver canal
    [send-messages] Enviar mensagens
    [embed-links] Inserir links
    [attach-files] Anexar arquivos
    [read-message-history] Ver histórico de mensagens
    [create-public-threads] Criar tópicos públicos
   *[send-messages-in-threads] Enviar mensagens em tópicos
}
discord-private-help = Neste chat não sou membro: uma partida aqui é jogada numa única mensagem, só pelos botões (sem lances digitados). Só consigo responder a um toque ou comando, então uma bandeira caída ou um lance automático aparece no próximo toque; /games sempre mostra como estão suas partidas.
inline-card-open = { $from } propõe uma partida: { $terms }. Joga quem tocar primeiro em Aceitar.
inline-card-to = { $from } desafia { $to }: { $terms }. { $to }, toque em Aceitar para jogar.
inline-card-for-anyone = Joga quem tocar primeiro em Aceitar
inline-card-for = Só { $to } pode aceitar
inline-not-ready = Este desafio ainda está sendo preparado: toque de novo daqui a pouco.
inline-card-expired = Este cartão é antigo demais para começar uma partida: envie um novo.
inline-unavailable = Jogue comigo num chat privado
inline-no-training = Sala de treino: /train num chat privado comigo
picked = Partida #{ $id }: { $square } pode ir para { $list }. Toque no destino, ou Voltar para outra peça.
button-stale = Este botão está desatualizado: a partida já avançou.
button-not-yours = Este botão não é seu.

## Challenges

challenge-to = { $from } desafia { $to }: { $terms }{ $wish ->
        [white] {" "}({ $from } joga de brancas)
        [black] {" "}({ $from } joga de pretas)
       *[none] {""}
    } — desafio #{ $id }.{ $pair_limit ->
        [yes] {" "}Casual: hoje vocês já jogaram entre si as 3 partidas com rating (F2).
       *[no] {""}
    } { $buttons ->
        [yes] { $to }: Aceitar ou Recusar aqui embaixo.
       *[no] { $to }: /accept ou /decline.
    } Expira em { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    }.
challenge-open = { $from } propõe uma partida a qualquer pessoa aqui: { $terms }{ $wish ->
        [white] {" "}({ $from } joga de brancas)
        [black] {" "}({ $from } joga de pretas)
       *[none] {""}
    } — desafio #{ $id }. { $buttons ->
        [yes] Toque em Aceitar para jogar.
       *[no] Use /accept para jogar.
    } Expira em { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    }.
look-alike = Atenção: o nome { $name } mistura alfabetos, por isso pode parecer o de outra pessoa.
too-many-challenges = Você já tem { $max ->
        [one] { $max } desafio aberto
       *[other] { $max } desafios abertos
    }; espere as respostas ou cancele um com /cancel (F3).
too-many-games = Você já está jogando { $max } partidas; termine ou abandone uma antes de começar outra.
challenge-rate = São mais de { $max ->
        [one] { $max } desafio
       *[other] { $max } desafios
    } num minuto; espere um pouco (F3).
which-challenge = Há vários desafios abertos para você: { $list }{ $more ->
    [0] {""}
   *[other] , e mais { $more }
}. Indique qual, por exemplo { $decline ->
    [yes] /decline
   *[no] /accept
} { $first }.
and-more = …e mais { $count }
challenge-brief = #{ $id } de { $from } ({ $terms })
challenge-taken = { $by } aceitou o desafio #{ $id }: partida #{ $game }.
self-challenge = Não é possível jogar contra si mesmo.
one-at-a-time = Desafie um jogador de cada vez.
no-challenge-for-you = Não há nenhum desafio aberto para você aqui.
no-such-challenge = Não há nenhum desafio #{ $id } aberto aqui.
challenge-for-someone-else = O desafio #{ $id } é para outra pessoa.
own-challenge = Esse desafio é seu; { $buttons ->
        [yes] toque em Cancelar se mudou de ideia.
       *[no] use /cancel se mudou de ideia.
    }
challenge-gone = Esse desafio já não está aberto: alguém o aceitou, foi cancelado ou expirou.
declined = { $by } recusou o desafio #{ $id } de { $challenger }.
only-target-declines = Só o jogador desafiado pode recusar; quem desafiou pode { $buttons ->
        [yes] tocar em Cancelar.
       *[no] usar /cancel.
    }
only-author-cancels = Só quem fez o desafio pode cancelá-lo.
cancelled = Desafio #{ $id } cancelado.
nothing-to-cancel = Você não tem nenhum desafio aberto aqui.
which-to-cancel = Você tem vários desafios abertos aqui: { $list }{ $more ->
    [0] {""}
   *[other] , e mais { $more }
}. Indique qual, por exemplo /cancel { $first }.
cancel-brief = #{ $id } ({ $terms })
expired = O desafio #{ $id } de { $challenger } expirou.
not-enough-chips = { $who } tem { $has ->
        [0] { $has } fichas
        [one] { $has } ficha
       *[other] { $has } fichas
    }, o que não basta para uma aposta de { $stake }.
stake-not-covered = Os dois jogadores precisam de { $stake ->
        [one] { $stake } ficha
       *[other] { $stake } fichas
    } para esta partida; um de vocês já não as tem.
unknown-player = Ainda não conheço @{ $handle }.

## Games

game-started = Partida #{ $id }: { $white } (brancas) contra { $black } (pretas) · { $terms }.{ $pair_limit ->
        [yes] {" "}Casual: hoje vocês já jogaram entre si as 3 partidas com rating (F2).
       *[no] {""}
    } { $white }, é a sua vez.
no-first-move = Partida #{ $id } abortada: { $who } não fez o primeiro lance (F1); não conta.
already-played = { $recorded } já foi jogado; agora é a vez do adversário.
too-many-pictures = Você pediu mais de { $max ->
        [one] { $max } imagem, dica ou análise
       *[other] { $max } imagens, dicas e análises
    } por minuto; espere um pouco.
record-more = Partida #{ $id }, continuação: { $moves }
no-game-here = Você não tem nenhuma partida neste chat.
several-games = Você tem várias partidas aqui ({ $ids }); indique qual pelo número: /move { $first } c3-d4, /board { $first }, /resign { $first }.
several-games-for = Você tem várias partidas aqui ({ $ids }); indique qual pelo número: /{ $command } { $first }.
several-games-move = Você tem várias partidas aqui ({ $ids }); indique qual pelo número: /move { $first } { $text }, /board { $first }, /resign { $first }.
no-such-game = Não há nenhuma partida #{ $id } neste chat.
not-your-game = A partida #{ $id } não é sua.
game-is-over = A partida #{ $id } já terminou.
not-your-turn = Não é a sua vez.
confirm-needed = O lance { $recorded } termina na sua própria casa depois do prazo (lance { $deadline }), o que perde a partida imediatamente (regra C6). { $buttons ->
        [yes] Toque em Confirmar para jogá-lo mesmo assim.
       *[no] Escreva /confirm para jogá-lo mesmo assim.
    }
nothing-to-confirm = Não há nenhum lance à espera de /confirm.
resign-ask = Desistir da partida #{ $id }? Aperte “{ btn-resign }” de novo em até { $seconds } segundos para desistir.
after-move = { $mover } jogou { $recorded }.{ $offer_declined ->
        [yes] {" "}A proposta de empate foi recusada.
       *[no] {""}
    } { $status }
status = Lance { $move_no }{ $clocks ->
        [none] {""}
       *[other] {" · "}{ $clocks }
    }{ $deadline ->
        [none] {""}
       *[other] {" · "}prazo para sair de casa: lance { $deadline }
    }{ $limit ->
        [none] {""}
       *[other] {" · "}limite: lance { $limit }
    } · vez de { $to_move }
status-over = A partida terminou.
status-clocks = { $white } { $white_clock } · { $black } { $black_clock }
board-info = Lance { $move_no }{ $deadline ->
        [none] {""}
       *[other] {" · "}prazo para sair de casa: lance { $deadline }
    }{ $limit ->
        [none] {""}
       *[other] {" · "}limite: lance { $limit }
    }
board-caption = Partida #{ $id }. { $status }
rules-result = { $winner ->
        [white] Fim da partida #{ $id }: { $name } (brancas) vence — { $cause } ({ $rule }).
        [black] Fim da partida #{ $id }: { $name } (pretas) vence — { $cause } ({ $rule }).
       *[none] Fim da partida #{ $id }: empate — { $cause } ({ $rule }).
    }
flagged = Partida #{ $id }: { $loser } ficou sem tempo — { $winner } vence (T1).
resigned = Partida #{ $id }: { $loser } desistiu — { $winner } vence (T2).
resigned-annulled = Partida #{ $id }: { $loser } desistiu com 10 lances ou menos jogados — a partida foi anulada (R).
rating-changes = Rating: { $changes }.
rating-change = { $name } { $after } ({ $sign ->
        [plus] +
        [minus] −
       *[zero] ±
    }{ $delta })
solo-no-draw = Num solo não há com quem empatar: /resign desiste da tentativa.
draw-offered = { $by } propõe empate. { $to }: { $buttons ->
        [yes] aceite ou recuse com os botões aqui embaixo.
       *[no] /draw para aceitar, /nodraw para recusar.
    }
draw-already-offered = Você já propôs empate.
draw-agreed = Partida #{ $id }: empate por acordo (T2).
no-draw-offer = Não há nenhuma proposta de empate para recusar.
draw-declined = { $by } recusou o empate.
abort-too-late = Tarde demais para abortar: os dois lados já jogaram. Você pode desistir com /resign ou propor empate com /draw.
aborted = Partida #{ $id } abortada por { $by }; não conta.
not-monitored = A partida #{ $id } não tem monitor de atividade.
claim-on-own-turn = É a sua vez: só é possível reivindicar a partida quando o adversário demora a jogar.
claim-too-early = { $who } não joga há { $idle }; só poderá reivindicar a partida depois de { $limit }.
idle-notice = Partida #{ $id }: { $idler } não joga há { $idle }. { $other } pode { $buttons ->
        [yes] tocar em «Reivindicar a partida»
       *[no] reivindicar a partida com /claim
    } (D6).
abandoned-win = Partida #{ $id }: { $loser } abandonou a partida — { $winner } vence (D6).
abandoned-void = Partida #{ $id }: { $loser } abandonou a partida com 10 lances ou menos jogados — a partida foi anulada (D6).
auto-moved = Partida #{ $id }: acabou o tempo de jogada de { $who }, e a mesa jogou { $recorded } automaticamente (D6).
reminder = { $who }, é a sua vez na partida #{ $id } (restam { $left }).
games-none = Você não tem nenhuma partida em andamento.
games-line = #{ $id } { $rules } contra { $opponent } — { $my_turn ->
        [yes] sua vez
       *[no] vez do adversário
    }{ $here ->
        [yes] {""}
       *[no] {" "}(outro chat)
    }
record = Partida #{ $id }, { $white } – { $black }, { $rules }: { $moves ->
        [none] ainda sem lances
       *[other] { $moves }
    }{ $outcome ->
        [none] {""}
       *[other] {" "}— { $outcome }
    }
record-result = { $result ->
        [white] { $name } (brancas) vence, { $cause }
        [black] { $name } (pretas) vence, { $cause }
        [void] sem efeito, { $cause }
       *[draw] empate, { $cause }
    }
no-moves-from = Não há nenhum lance possível a partir de { $square } agora.
moves-from = A peça em { $square } pode ir para { $list }.
bad-square = '{ $text }' não é uma casa.
internal-error = Ocorreu um erro do nosso lado; nada foi alterado. Tente novamente.
conflict = A partida mudou enquanto a sua mensagem era processada; nada foi alterado. Veja o /board e tente novamente.
help =
    Corners (Ugolki) e Damas no chat.
    /challenge @jogador [VARIANTE | damas [flying|short] [movetime 30s] [monitor]] [10+5 | 30s+2 | 1d | none] [rated|casual] [white|black|random] — sem @jogador: qualquer pessoa pode aceitar
    /accept, /decline, /cancel [N] — aceitar, recusar ou retirar um desafio (ou use os botões dele)
    Escreva os lances como texto: c3-d4, c3 e5, c3e3e5 (Damas: d3xf5, 11-15). Com várias partidas: /move N c3-d4
    /moves c3 — para onde a peça em c3 pode ir · /board · /games · /record N
    /resign · /draw (propor ou aceitar empate) · /nodraw · /abort (antes de ambos jogarem) · /confirm · /claim — ou os botões sob o tabuleiro
    /rating [@jogador] [tipo] — rating e gráfico · /top [tipo] [month] [global] — a classificação · /chips
    /rules [variante] — as regras
    /lang [en|ru|it|pt|auto] — o seu idioma (de um admin do grupo: o do chat)
    /tournament arena|swiss|roundrobin [variante] [tempo] … — um torneio aqui (os admins) · /join · /withdraw · /standings [N]
    /play bot [1-5] [variante] [tempo] [white|black] — jogue contra o motor (sem rating) · /hint · /review N — uma partida terminada em animação
    /train [variante] [vs bot 1-5 | vs @user | solo] [tempo] — a sala de treino (sem rating, qualquer variante, com /undo e /hint); solo: atravesse sozinho no menor número de lances
    Variantes: classic3x3 (padrão), classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training:…
option-help = { $option ->
       *[game] Número da partida (#12)
        [challenge] Número do desafio
        [opponent] Quem (ninguém: qualquer um aqui)
        [variant] Jogo e variante
        [time] Controle de tempo: 10+5, 30s+2, 1d ou none
        [rated] Valendo rating ou amistosa
        [color] Sua cor
        [stake] Fichas em jogo (damas com rating)
        [move] O lance: c3-d4, d3xf5, 11-15
        [square] Uma casa: c3
        [player] De quem são os ratings
        [kind] classic3x3, classic3x4, diagonal3x3, damas
        [month] Só este mês
        [global] Todos, não só este chat
        [language] en, ru, pt, it ou auto
        [against] Contra quem: ninguém (solo), o bot ou o jogador que indicar
        [friend] Um amigo para treinar
        [level] O nível do bot
        [room] classic3x3, triangle, … ou training:classic3x3,diag,home=a1-b2
        [train-time] Controle de tempo: 10+5, 30s+2, 1d ou none (padrão)
        [bot-variant] classic3x3, triangle, halma16, damas, …
        [what] arena, swiss, roundrobin, start ou cancel
        [settings] rated, in 10m, at 18:00, 60m, 5 rounds
        [tournament] Número do torneio
    }
command-help = { $command ->
        [start] Comece aqui: o que o bot faz
        [help] Todos os comandos
        [challenge] Desafiar um jogador (ou qualquer pessoa aqui) para uma partida
        [play] Jogue contra o bot: /play bot 3 classic3x3 5+3
        [accept] Aceitar um desafio
        [decline] Recusar um desafio
        [cancel] Retirar o seu desafio
        [m] Jogar um lance: /m c3-d4
        [move] Jogar um lance: /move c3-d4
        [moves] Para onde uma peça pode ir: /moves c3
        [board] Mostrar o tabuleiro
        [games] As suas partidas em andamento
        [record] Os lances de uma partida
        [resign] Desistir da partida
        [draw] Propor empate ou aceitar a proposta
        [nodraw] Recusar uma proposta de empate
        [abort] Abortar a partida antes de ambos jogarem
        [confirm] Jogar um lance que perde imediatamente
        [claim] Reivindicar uma partida que o adversário abandonou
        [hint] O lance do motor para você (o bot e a sala de treino)
        [review] Uma partida terminada em animação, com os momentos decisivos
        [train] A sala de treino: solo, contra o bot ou contra um amigo
        [undo] Voltar o seu último lance (sala de treino)
        [rating] Rating e gráfico
        [top] A classificação
        [chips] As suas fichas
        [lang] Escolher o seu idioma
        [tournament] Criar, começar ou cancelar um torneio aqui
        [join] Entrar no torneio daqui
        [withdraw] Sair do torneio daqui
        [standings] A classificação do torneio
       *[rules] As regras de uma variante
    }
unseen-player = Ainda não conheço @{ $handle }: @{ $handle }, envie primeiro /start numa conversa comigo e depois use /accept aqui.
rules-corners = { $rules }: vence quem primeiro preencher toda a casa adversária com as próprias peças (C1). Um lance é um passo { $diagonal ->
        [yes] na vertical, na horizontal ou na diagonal
       *[no] na vertical ou na horizontal
    } para uma casa vizinha vazia, ou uma cadeia de saltos sobre peças vizinhas de qualquer cor; é possível parar depois de qualquer salto, e uma cadeia não pode passar duas vezes pela mesma casa (C2). As brancas jogam primeiro, então as pretas sempre têm o último lance: se os dois preenchem a casa adversária no mesmo lance, a partida é empate (C5).{ $deadline ->
        [none] {""}
       *[other] {" "}Todas as peças devem sair de casa no prazo de { $deadline ->
            [one] { $deadline } lance
           *[other] { $deadline } lances
        }; depois do prazo, um lance que termina na própria casa perde a partida (C6).{ $home_exemption ->
            [yes] {" "}Uma peça bloqueada dentro da própria casa, com uma peça adversária entre as que a impedem de se mover, não descumpre o prazo (C6).
           *[no] {""}
        }
    }{ $limit ->
        [none] {""}
       *[other] {" "}Depois do { $limit }º lance das pretas, vence quem tem mais peças na casa adversária; em caso de igualdade, é empate (C7).
    } Também é empate quando uma posição se repete três vezes com o mesmo jogador da vez, ou quando um jogador não tem nenhum lance (C7).{ $no_blocking ->
        [yes] {" "}Proibido bloquear: não se pode fazer um lance depois do qual uma peça adversária fique sem poder dar passo nem saltar por causa de uma das suas peças (C8).
       *[no] {" "}Bloquear é permitido (a regra C8 não se aplica).
    }{ $target_lock ->
        [yes] {" "}Uma peça que entra na casa adversária pode andar dentro dela, mas nunca mais sair (C10).
       *[no] {""}
    }
rules-damas = Damas (tabuleiro 8×8, regras portuguesas e espanholas): os peões andam na diagonal, uma só casa para a frente, e só capturam para a frente (D2). A captura é obrigatória e continua na mesma jogada enquanto for possível; é obrigatório capturar o maior número possível de pedras e, entre capturas iguais em número, o maior número de damas (lei da quantidade e lei da qualidade, D4). O peão que chega ao final do tabuleiro é promovido a dama. { $flying ->
        [yes] A dama anda na diagonal, para a frente ou para trás, percorrendo quantas casas livres houver, e pode capturar uma pedra distante na mesma diagonal (D3).
       *[no] A dama anda uma casa na diagonal, como o peão, mas também para trás, e captura em qualquer direção (dama de uma casa, D3).
    } Perde quem fica sem pedras ou sem nenhum movimento possível (D5).

## Ratings

unknown-kind = '{ $word }' não é um tipo de partida com rating; opções: { $kinds }.
no-rated-games = O jogador { $name } ainda não tem partidas com rating (todos começam com 1000).
rating-title = Rating de { $name }:
rating-line = { $kind }: { $rating }{ $rank ->
        [none] {""}
       *[other] {" "}(#{ $rank })
    } · { $monthly } neste mês{ $monthly_rank ->
        [none] {""}
       *[other] {" "}(#{ $monthly_rank })
    } · { $games ->
        [0] { $games } partidas
        [one] { $games } partida
       *[other] { $games } partidas
    }: { $won ->
        [0] { $won } vitórias
        [one] { $won } vitória
       *[other] { $won } vitórias
    }, { $drawn ->
        [0] { $drawn } empates
        [one] { $drawn } empate
       *[other] { $drawn } empates
    }, { $lost ->
        [0] { $lost } derrotas
        [one] { $lost } derrota
       *[other] { $lost } derrotas
    }
chart-title = { $name } · rating em { $kind }
chart-footer = { $games ->
        [one] { $games } partida
       *[other] { $games } partidas
    } · agora { $rating }
top-scope = Classificação ({ $kind }, { $month ->
        [none] geral
       *[other] mês { $month }
    }, { $global ->
        [yes] todos os chats
       *[no] este chat
    })
top-empty = { $scope }: ainda ninguém jogou uma partida com rating.
top-line = { $place }. { $name } { $rating } ({ $games ->
        [0] { $games } partidas
        [one] { $games } partida
       *[other] { $games } partidas
    })
top-you = … { $place }. { $name } { $rating } (você)
chips = { $name } tem { $chips ->
        [0] { $chips } fichas
        [one] { $chips } ficha
       *[other] { $chips } fichas
    }.

## Torneios

tournament-terms = { $format ->
        [arena] Arena
        [swiss] Suíço
       *[roundrobin] Todos contra todos
    } #{ $id }: { $rules } · { $time } · { $rated ->
        [yes] com rating
       *[no] casual
    }{ $rounds ->
        [none] {""}
        [one] {" · "}{ $rounds } rodada
       *[other] {" · "}{ $rounds } rodadas
    }{ $minutes ->
        [none] {""}
       *[other] {" · "}{ $minutes } minutos
    }
tournament-card = 🏆 { $terms }
    { $status ->
        [open] Começa às { $starts }. Carregue em Entrar ou envie /join para jogar.
        [running] Em andamento.
        [finished] Terminado: veja a classificação.
       *[cancelled] Cancelado.
    }
    { $count ->
        [0] Ninguém entrou ainda.
        [one] 1 jogador: { $players }
       *[other] { $count } jogadores: { $players }
    }
tournament-usage = Crie um torneio: /tournament arena|swiss|roundrobin VARIANTE TEMPO [rated|casual], com opções: in 10m ou at 18:00 (UTC; por omissão daqui a 5 minutos), a duração de uma arena (60m), as rodadas de um suíço (5 rounds). Depois /tournament start, /tournament cancel, /join, /withdraw, /standings.
tournament-groups-only = Os torneios jogam-se em grupos: crie um lá.
tournament-admins-only = Só os administradores do grupo podem criar um torneio aqui.
tournament-busy = O torneio #{ $id } já está a decorrer neste chat: um de cada vez.
tournament-needs-clock = Um torneio precisa de relógio: indique um tempo como 3+2.
tournament-bad-word = Não entendo “{ $word }” num torneio: veja /tournament.
tournament-bad-start = “{ $text }” não é um início que eu leia: diga in 10m, in 2h ou at 18:00 (UTC, dentro de um dia).
tournament-bad-rounds = Um suíço tem de 1 a { $max } rodadas.
tournament-bad-length = Uma arena dura de { $min } a { $max } minutos.
tournament-none = Não há nenhum torneio aberto ou a decorrer neste chat.
no-such-tournament = Não há nenhum torneio #{ $id } neste chat.
tournament-not-creator = Só quem criou o torneio #{ $id } o pode começar ou cancelar.
tournament-already-started = O torneio #{ $id } já começou.
tournament-cancelled = O torneio #{ $id } foi cancelado{ $why ->
        [few] : vieram menos de dois jogadores.
       *[creator] {"."}
    }
tournament-joined = { $name } entra no torneio #{ $id } ({ $count ->
        [one] 1 jogador
       *[other] { $count } jogadores
    }).
tournament-back = { $name } voltou ao torneio #{ $id }.
tournament-already-in = Já está no torneio #{ $id }.
tournament-not-in = Não está a jogar o torneio #{ $id }.
tournament-withdrew = { $name } sai do torneio #{ $id }.
tournament-full = O torneio #{ $id } está cheio ({ $max } jogadores).
tournament-closed = O torneio #{ $id } já está a decorrer e não aceita mais ninguém.
tournament-started = O torneio #{ $id } começa com { $count } jogadores{ $rounds ->
        [none] {""}
        [one] {" "}em { $rounds } rodada
       *[other] {" "}em { $rounds } rodadas
    }{ $minutes ->
        [none] {""}
       *[other] {" "}durante { $minutes } minutos
    }. Boa sorte!
tournament-round = Torneio #{ $id }, rodada { $round } de { $rounds }:
tournament-pairing = #{ $game }: { $white } (brancas) contra { $black } (pretas)
tournament-bye = { $name } folga nesta rodada{ $point ->
        [yes] {" "}(um ponto)
       *[no] {""}
    }
tournament-forfeit = { $winner } vence: { $loser } desistiu
tournament-game-started = Partida #{ $id } do torneio #{ $tournament }: { $white } (brancas) contra { $black } (pretas) · { $time } · { $rated ->
        [yes] com rating
       *[no] casual
    }. { $white }, é a sua vez.
tournament-standings = Torneio #{ $id }{ $status ->
        [final] , classificação final:
       *[live] { $round ->
            [none] , classificação:
           *[other] , classificação após a rodada { $round }:
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
        [yes] {" "}(em pausa)
       *[no] {""}
    }
tournament-no-show = Partida #{ $id }: { $who } nunca fez o primeiro lance e perde-a no torneio #{ $tournament }.{ $paused ->
        [yes] {" "}{ $who } fica em pausa: /join para voltar.
       *[no] {""}
    }
tournament-over = O torneio #{ $id } terminou. Vencedor: { $winner }! 🏆
tournament-place = { $format ->
        [arena] Arena
        [swiss] Suíço
       *[roundrobin] Todos contra todos
    } #{ $id }: { $place }.º de { $of }
standings-column = { $column ->
        [place] N.º
        [name] Jogador
        [score] Pontos
        [games] Partidas
        [change] ±
       *[performance] Desemp.
    }
btn-join = Entrar
btn-withdraw = Sair

## Languages

lang-name = { $code ->
        [ru] Русский
        [pt] Português
        [it] Italiano
       *[en] English
    }
lang-set = { $whose ->
        [chat] Este chat
       *[you] Você
    } { $lang ->
        [none] vai receber respostas no idioma do app de cada jogador.
       *[other] vai receber respostas em { $lang }.
    }
lang-unknown = Não falo '{ $code }'; experimente um destes: { $list } (ou auto).
lang-now = Aqui as respostas são em { $lang }. /lang CÓDIGO muda o idioma: { $list } (ou auto).

## The console's own lines

console-welcome = console do ugolki — escreva linhas no formato NOME: texto (alice: /challenge @bob), /help para os comandos, NOME: [Rótulo] para usar um botão, Ctrl-D para sair.
console-web-at = Páginas das partidas: { $url }/g/ e o número da partida, p. ex. { $url }/g/1 (só partidas em grupos; este console é um).
console-web-game = Partida #{ $id } no navegador: { $url }
console-web-seat = { $name } joga lá depois de abrir { $url } (uma vez, em até { $minutes } minutos)
console-line-shape = escreva as linhas no formato NOME: texto, por exemplo alice: /challenge @bob
console-bad-name = '{ $name }' não é um nome válido aqui: letras, algarismos, _ . - (no máximo { $max ->
        [one] { $max } caractere
       *[other] { $max } caracteres
    })
console-line-too-long = essa linha tem mais de { $max ->
        [one] { $max } byte
       *[other] { $max } bytes
    }; foi ignorada
console-not-text = essa linha não é texto UTF-8; foi ignorada
console-no-such-button = não há nenhum botão [{ $label }] para usar
cmd-bot-level = O nível do bot é um número de 1 a { $max }: /play bot 3 classic3x3 5+3
bot-unrated = Partidas contra o bot não valem rating e não têm adversário a nomear: tire @user, rated e stake.
hint = Dica para a partida #{ $id }: { $recorded }
hint-only-vs-bot = Dicas são para partidas contra o bot (/play bot) e para a sala de treino (/train), não entre pessoas.
review-not-over = A partida #{ $id } ainda está em andamento: /review é para partidas terminadas.
review-intro = Partida #{ $id }: { $white } – { $black }, { $moves ->
        [one] um lance
       *[other] { $moves } lances
    }.
review-tail = Uma partida longa: a revisão cobre os seus últimos { $shown } lances de { $total }.
turning-point = Lance { $move_no }, { $who }: { $played } custou { $whole },{ $tenth } { $damas ->
        [yes] pedras
       *[no] passos
    }; o motor prefere { $better }.
turning-point-decisive = Lance { $move_no }, { $who }: { $played } { $won ->
        [yes] deixou escapar uma partida ganha
       *[no] perde a partida à força
    }; o motor prefere { $better }.
turning-point-deadline = Lance { $move_no }, { $who }: depois de { $played } ficaram em casa mais peças do que lances para tirá-las até o prazo (lance { $deadline }, regra C6); o motor prefere { $better }.
turning-point-deadline-seen = Lance { $move_no }, { $who }: { $played } { $won ->
        [yes] deixa escapar o prazo (lance { $deadline }, regra C6) que o motor vê ganho
       *[no] deixa o prazo (lance { $deadline }, regra C6) virar contra si, até onde o motor vê
    }; o motor prefere { $better }.
review-no-turning-points = Nenhum lance mudou muito a partida: sem momentos decisivos.
solo-turning-point = Lance { $move_no }: { $played } custou { $moves ->
        [one] um lance
       *[other] { $moves } lances
    }; um caminho mais curto passa por { $better }.
cmd-train-vs = Depois de vs, diga bot [NÍVEL] ou @user: /train triangle vs bot 2, /train vs @bob ou /train solo.
train-corners-only = A sala de treino é para variantes de Cantos: /train classic3x3 solo, /train training:triangle,ortho vs bot 3.
train-unrated = A sala de treino não vale rating: tire rated e stake.
solo-started = Treino #{ $id }, { $rules }: atravesse até o canto oposto no menor número de lances. { $minimum ->
        [0] Não se conhece um mínimo provado para esta forma.
       *[other] O mínimo provado é de { $minimum } lances.
    } /hint mostra um caminho, /undo volta um lance.
solo-crossed = Treino #{ $id }: { $who } atravessou em { $moves } lances. { $minimum ->
        [0] Não se conhece um mínimo provado para esta forma.
       *[other] { $optimal ->
            [yes] É o mínimo provado: uma travessia perfeita!
           *[no] O mínimo provado é de { $minimum } lances.
        }
    }
solo-not-crossed = Treino #{ $id }: { $moves } lances e o canto não está cheio; a tentativa acabou. /train solo para tentar de novo.
solo-abandoned = Treino #{ $id } abandonado; não conta.
solo-hint = Dica para o treino #{ $id }: { $recorded }, depois mais { $left } { $left ->
        [one] lance
       *[other] lances
    } ({ $shortest ->
        [yes] um caminho mais curto
       *[no] o caminho mais curto que o motor achou; pode haver um mais curto
    }).
solo-no-route = O motor não achou caminho daqui na partida #{ $id }: tente /undo.
undone = Partida #{ $id }: { $who } voltou { $plies } { $plies ->
        [one] lance
       *[other] lances
    }.
undo-only-training = Voltar lances é só na sala de treino (/train), não em partidas valendo rating ou amistosas.
undo-nothing = Nada para voltar na partida #{ $id }.
undo-opponent-moved = O adversário já respondeu: só dá para voltar o seu último lance, antes da resposta.

## As páginas web públicas
web-game-title = Partida #{ $id }: { $white } – { $black }
web-moves = Lances
web-resign-sure = Tem certeza? Toque de novo para desistir
web-no-moves = Ainda sem lances.
web-at-ply = Depois de { $ply } de { $plies } { $plies ->
        [one] meio-lance
       *[other] meios-lances
    }
web-first = Início
web-previous = Voltar
web-next = Avançar
web-latest = Agora
web-live = A partida está em curso: esta página acompanha cada lance (sem script, recarrega a cada { $seconds } segundos).
web-download-pdn = Baixar a partida (PDN)
web-replay-gif = Replay animado (GIF)
web-no-game = Não há partida pública #{ $id }. As partidas em chats privados são dos seus jogadores.
web-top-title = Classificações
web-open-from-chat = Abra uma partida pelo tabuleiro dela no chat, ou por um link para ela.
web-no-page = Esta página não existe. As partidas ficam em /g/ com o seu número, os jogadores em /p/, os torneios em /t/; as classificações estão na primeira página.
web-seat-gone = Este link de entrada já foi usado ou é antigo demais. Os links de cada partida são impressos no console quando ela começa.
web-activity-signing-in = Entrando pelo Discord…
web-not-seated = Aqui só os jogadores da partida jogam: abra o tabuleiro pelo chat da partida (ou pelo link de entrada do console).
web-too-many = Pedidos demais do seu endereço: tente de novo em { $seconds } s.
web-game-at = A página da partida: { $url }
web-top-at = Todas as classificações: { $url }
web-no-player = Não há jogador #{ $id }.
web-player-title = Rating de { $name }
web-player-games = Partidas em grupos
web-no-public-games = Ainda sem partidas em grupos.
web-game-line = #{ $id } { $white } – { $black }, { $rules }{ $outcome ->
        [none] {" "}· em curso
       *[other] {" "}— { $outcome }
    }
web-no-tournament = Não há nenhum torneio #{ $id } para mostrar.
web-tournament-at = O torneio na web: { $url }
web-tournament-games = Partidas
web-tournament-live = O torneio está a decorrer: esta página recarrega { $seconds ->
        [one] a cada segundo
       *[other] a cada { $seconds } segundos
    }.
