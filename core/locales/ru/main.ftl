### Русский каталог. Сообщения, переменные и ключи выбора — как в английском (en/main.ftl).
### Цвета приходят как `white` / `black`, да/нет — как `yes` / `no`, отсутствие значения — `none`.
### Числа — числа Fluent: формы по правилам CLDR для `ru` (one / few / many).
### Термины правил — как на исходной странице (seeds/corners-rules.ru.txt): «дом»,
### «срок вывода», «запирать»; Damas — «шашки», king — «дамка», man — «простая шашка».

## Части других сообщений

duration-days = { $days } д { $hours } ч
time-none = без часов
time-fischer = { $text }
time-per-move = { $text } на ход
list-or = { $first } или { $second }
game-number = #{ $id }
thread-name = Партия #{ $id }
rules-name = { $family ->
        [damas] Шашки ({ $flying ->
            [yes] дальнобойные дамки
           *[no] короткие дамки
        })
       *[other] Уголки, { $training ->
            [yes] учебная комната ({ $family ->
                [classic3x3] классика 3×3
                [classic3x4] классика 3×4
                [classic4x3] классика 3×4 (зеркальная)
                [diagonal3x3] с диагональю 3×3
                [diagonal3x4] с диагональю 3×4
                [triangle] треугольный дом
                [square4x4] дом 4×4
                [halma16] хальма 16×16
               *[other] свой дом
            }{ $changed ->
                [yes] ; { $changes }
               *[no] {""}
            })
           *[no] { $family ->
                [classic3x3] классика 3×3
                [classic3x4] классика 3×4
                [classic4x3] классика 3×4 (зеркальная)
                [diagonal3x3] с диагональю 3×3
                [diagonal3x4] с диагональю 3×4
                [triangle] треугольный дом
                [square4x4] дом 4×4
                [halma16] хальма 16×16
               *[other] { $family }
            }
        }
    }
room-change = { $change ->
        [solo] в одиночку
        [ortho] только прямые ходы
        [diag] и диагональные ходы
        [deadline] срок вывода: { $value }-й ход
        [deadline-off] без срока вывода
        [limit] партия до хода { $value }
        [limit-off] без предела ходов
        [blocking-on] запирание разрешено
        [blocking-off] запирание запрещено
        [lock-on] из дома соперника не выйти
        [lock-off] из дома соперника можно выйти
       *[home] свой дом
    }
kind-name = { $kind ->
        [classic3x3] Классика 3×3
        [classic3x4] Классика 3×4
        [diagonal3x3] С диагональю 3×3
       *[damas] Шашки
    }
terms = { $rules } · { $time } · { $rated ->
        [yes] на рейтинг
       *[no] без рейтинга
    }{ $movetime ->
        [none] {""}
       *[other] {" · "}время на ход { $movetime }
    }{ $monitor ->
        [yes] {" · "}контроль активности
       *[no] {""}
    }{ $stake ->
        [none] {""}
       *[other] {" · "}ставка { $stake } { $stake ->
            [one] фишка
            [few] фишки
           *[many] фишек
        }
    }

## Почему партия закончилась

cause-completed = дом соперника занят
cause-both-completed = оба заняли дом соперника за { $move_no } { $move_no ->
        [one] ход
        [few] хода
       *[many] ходов
    }
cause-returned-home = { $side ->
        [white] белые
       *[black] чёрные
    } вернули шашку в свой дом после срока вывода
cause-left-home-late = у { $side ->
        [white] белых
       *[black] чёрных
    } к сроку вывода осталась шашка в своём доме
cause-both-left-home-late = к сроку вывода шашки в своём доме остались у обоих
cause-limit = предел партии: в доме соперника { $white } { $white ->
        [one] шашка
        [few] шашки
       *[many] шашек
    } белых и { $black } { $black ->
        [one] шашка
        [few] шашки
       *[many] шашек
    } чёрных
cause-repetition = позиция повторилась трижды
cause-no-legal-move = { $side ->
        [white] белым
       *[black] чёрным
    } нечем ходить
cause-no-reply = дом соперника занят, а чёрным нечем ответить
cause-no-pieces = у { $side ->
        [white] белых
       *[black] чёрных
    } не осталось шашек
cause-cannot-move = у { $side ->
        [white] белых
       *[black] чёрных
    } нет ни одного хода
cause-flag = у { $side ->
        [white] белых
       *[black] чёрных
    } вышло время
cause-resigned = { $side ->
        [white] белые
       *[black] чёрные
    } сдались
cause-agreed = ничья по согласию
cause-aborted = партия отменена до того, как обе стороны сделали ход
cause-chat-gone = партия аннулирована: бота удалили из чата
cause-abandoned = { $side ->
        [white] белые
       *[black] чёрные
    } бросили партию
cause-no-first-move = { $side ->
        [white] белые
       *[black] чёрные
    } так и не сделали первый ход
result-line = { $ended ->
        [yes] { $winner ->
            [white] победили белые ({ $cause })
            [black] победили чёрные ({ $cause })
           *[none] ничья ({ $cause })
        }
       *[no] партия идёт
    }

## Почему ход не принят

refused = { $text }: { $reason }
text-empty = ход пустой
text-too-long = ход слишком длинный
text-bad-square = «{ $text }» — не клетка
text-one-square = в ходе нужны хотя бы две клетки
text-bad-number = «{ $text }» — не номер клетки (1–32)
ill-no-piece-of-yours = на { $square } нет вашей шашки
ill-off-board = клетки { $square } нет на этой доске
ill-occupied = клетка { $square } занята
ill-mixed = ход — это один шаг или цепочка прыжков: шаг нельзя продолжить (правило C2)
ill-would-block = этот ход запирает шашку на { $square }, а запирать нельзя (правило C8)
ill-unreachable = шашка с { $from } не может попасть на { $to }: туда не ведёт ни шаг, ни цепочка прыжков (правило C2)
ill-not-diagonally = { $from }-{ $to } — ход по диагонали: в этом варианте шашки ходят и прыгают только вверх, вниз, влево и вправо (правило C2)
ill-same-square = { $square }-{ $square } никуда не ведёт: ход заканчивается на другой клетке (правило C2)
ill-not-a-jump = { $from }-{ $to } — это не шаг и не прыжок (правило C2)
ill-nothing-to-jump = на { $square } нет шашки, через которую можно прыгнуть (правило C2)
ill-revisit = в одной цепочке нельзя дважды встать на { $square } (правило C2)
ill-target-locked = шашка на { $square } уже в доме соперника и не может его покинуть
ill-game-over = партия окончена
ill-not-playing = { $square } — не игровая клетка
ill-capture-compulsory = бить обязательно
ill-quantity = бить нужно как можно больше: здесь можно взять { $count } { $count ->
        [one] шашку
        [few] шашки
       *[many] шашек
    }
ill-quality = при взятии { $count } { $count ->
        [one] шашки
        [few] шашек
       *[many] шашек
    } нужно бить как можно больше дамок: здесь можно взять { $kings } { $kings ->
        [one] дамку
        [few] дамки
       *[many] дамок
    }
ill-must-continue = взятие нужно продолжить с { $square }
ill-backward = простые шашки ходят и бьют только вперёд
ill-crowned = простая, ставшая дамкой на { $square }, там и останавливается: ход окончен (D2)
ill-not-a-move = { $from }-{ $to } — так эта шашка не ходит
ill-nothing-to-take = между { $from } и { $to } нет шашки соперника, которую можно взять
ill-taken-twice = шашка на { $square } в этом ходе уже побита
ill-ambiguous = ход неоднозначен, уточните: { $options }

## Варианты

variant-unknown = неизвестный вариант «{ $id }» (есть classic3x3, classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training)
variant-bad-option = непонятная настройка учебной комнаты «{ $option }» (есть ortho, diag, deadline=N|off, limit=N|off, blocking=on|off, lock=on|off, home=a1-c3.d1)
variant-bad-home = такой дом не годится: { $problem }
home-not-a-square = «{ $item }» — не клетка и не диапазон вида a1-c3
home-empty = в нём нет ни одной клетки
home-off-board = клетки { $square } нет на доске
home-too-many = { $count } { $count ->
        [one] клетка
        [few] клетки
       *[many] клеток
    } — больше, чем можно ({ $max })
home-both-homes = клетка { $square } попала бы в оба дома

## Разбор команд

cmd-too-long = Сообщение слишком длинное (можно не больше { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    }).
cmd-unknown = Неизвестная команда /{ $name } (см. /help).
cmd-challenge-word = Не понимаю «{ $word }» в вызове (см. /help).
cmd-not-a-game-number = «{ $text }» — не номер партии.
cmd-extra-word = /{ $command } принимает не больше одного номера: «{ $word }» — лишнее.
no-such-number = Нет ни партии, ни вызова, ни турнира с номером #{ $typed }.
cmd-move-missing = После /move нужен ход, например: /move c3-d4
cmd-moves-missing = После /moves нужна клетка, например: /moves c3
cmd-moves-one-square = /moves показывает ходы с одной клетки: «{ $word }» — лишнее слово (например, /moves c3).
cmd-one-game = Укажите одну партию, а не две.
cmd-one-time-control = Укажите один контроль времени, а не два.
cmd-two-ways = «{ $first }» и «{ $second }» противоречат друг другу: выберите одно.
cmd-name-after-at = Пишите имя игрока сразу после @.
cmd-kings-are-damas = «{ $word }» — это настройка дамок в шашках: пишите damas { $word }
cmd-movetime-range = Для movetime нужно время от 5 секунд до 24 часов, например: movetime 30s
cmd-damas-options = movetime и monitor — настройки только для шашек (damas).
cmd-not-rated = Партии «{ $rules }» идут без рейтинга; укажите casual.
cmd-stake-needs-rated = Ставка бывает только в рейтинговой партии в шашки: damas rated stake 50
cmd-stake-number = После stake нужно число фишек, например: stake 50
cmd-space-before-at = Поставьте пробел перед @{ $name }: /{ $command } @{ $name }
cmd-bad-mention = «{ $word }» — не имя: напишите @имя один раз, например @bob

## Кнопки

btn-accept = Принять
btn-decline = Отклонить
btn-cancel = Отменить
btn-resign = Сдаться
btn-offer-draw = Предложить ничью
btn-accept-draw = Принять ничью
btn-decline-draw = Отклонить ничью
btn-abort = Отменить партию
btn-confirm = Подтвердить
btn-claim = Забрать партию
btn-square = { $square }
btn-back = Назад
btn-open-board = Открыть доску
help-commands-only = В этой группе бот видит только адресованные ему команды и ответы на свои сообщения (режим приватности Telegram): пишите /m@{ $bot } c3-d4 или ответьте ходом на сообщение с доской.
help-mentions-only = На этом сервере бот не читает сообщения: играйте командой /move (она подсказывает ходы) или кнопками под доской. Набранные ходы работают в личных сообщениях боту и в сообщениях с упоминанием @{ $bot }.
missing-permissions = Я не могу проводить партию в этом канале: мне не хватает разрешений { $list }. Администратор сервера может их выдать (Настройки сервера → Роли или права этого канала).
permission-name = { $permission ->
    [view-channel] Просматривать канал
    [send-messages] Отправлять сообщения
    [embed-links] Встраивать ссылки
    [attach-files] Прикреплять файлы
    [read-message-history] Читать историю сообщений
    [create-public-threads] Создавать публичные ветки
   *[send-messages-in-threads] Отправлять сообщения в ветках
}
discord-private-help = В этом чате меня нет среди участников: партия здесь идёт на одном сообщении, только кнопками (без набранных ходов). Я могу лишь отвечать на нажатия и команды, поэтому упавший флажок или автоматический ход видны при следующем нажатии; /games всегда покажет, как обстоят ваши партии.
inline-card-open = { $from } предлагает партию: { $terms }. Играет тот, кто первым нажмёт «Принять».
inline-card-to = { $from } вызывает { $to }: { $terms }. { $to }, нажмите «Принять», чтобы играть.
inline-card-for-anyone = Играет тот, кто первым нажмёт «Принять»
inline-card-for = Принять может только { $to }
inline-not-ready = Вызов ещё готовится: нажмите снова через мгновение.
inline-card-expired = Эта карточка слишком старая, чтобы начать партию: отправьте новую.
inline-unavailable = Сыграйте со мной в личном чате
inline-no-training = Тренировка: /train в личном чате со мной
picked = Партия #{ $id }: { $square } может пойти на { $list }. Нажмите куда, или «Назад», чтобы выбрать другую шашку.
button-stale = Эта кнопка устарела: партия ушла вперёд.
button-not-yours = Эта кнопка не для вас.

## Вызовы

challenge-to = { $from } вызывает { $to }: { $terms }{ $wish ->
        [white] {" "}({ $from } играет белыми)
        [black] {" "}({ $from } играет чёрными)
       *[none] {""}
    } — вызов #{ $id }.{ $pair_limit ->
        [yes] {" "}Без рейтинга: сегодня вы уже сыграли друг с другом 3 рейтинговые партии (F2).
       *[no] {""}
    } { $to }: { $buttons ->
        [yes] кнопки «Принять» и «Отклонить» ниже.
       *[no] /accept — принять, /decline — отклонить.
    } Вызов истечёт через { $minutes } { $minutes ->
        [one] минуту
        [few] минуты
       *[many] минут
    }.
challenge-open = { $from } предлагает партию любому в этом чате: { $terms }{ $wish ->
        [white] {" "}({ $from } играет белыми)
        [black] {" "}({ $from } играет чёрными)
       *[none] {""}
    } — вызов #{ $id }. { $buttons ->
        [yes] Чтобы сыграть, нажмите «Принять».
       *[no] Чтобы сыграть, отправьте /accept.
    } Вызов истечёт через { $minutes } { $minutes ->
        [one] минуту
        [few] минуты
       *[many] минут
    }.
look-alike = Осторожно: в имени { $name } смешаны алфавиты, его легко спутать с чужим.
too-many-challenges = У вас уже { $max } { $max ->
        [one] открытый вызов
        [few] открытых вызова
       *[many] открытых вызовов
    }; дождитесь ответа или отмените один через /cancel (F3).
too-many-games = У вас уже идёт { $max } { $max ->
        [one] партия
        [few] партии
       *[many] партий
    }; закончите или сдайте одну, прежде чем начинать новую.
challenge-rate = Это больше { $max } { $max ->
        [one] вызова
        [few] вызовов
       *[many] вызовов
    } в минуту; подождите немного (F3).
which-challenge = Для вас открыто несколько вызовов: { $list }{ $more ->
    [0] {""}
   *[other] , и ещё { $more }
}. Уточните, какой, например: { $decline ->
    [yes] /decline
   *[no] /accept
} { $first }.
and-more = …и ещё { $count }
challenge-brief = #{ $id } от { $from } ({ $terms })
challenge-taken = { $by } принимает вызов #{ $id }: партия #{ $game }.
self-challenge = Нельзя играть против самого себя.
one-at-a-time = Вызывайте игроков по одному.
no-challenge-for-you = Здесь нет открытых вызовов для вас.
no-such-challenge = Здесь нет открытого вызова #{ $id }.
challenge-for-someone-else = Вызов #{ $id } адресован не вам.
own-challenge = Это ваш собственный вызов; если передумали — { $buttons ->
        [yes] нажмите «Отменить».
       *[no] отмените его через /cancel.
    }
challenge-gone = Этот вызов только что приняли или отменили, или он истёк.
declined = { $by } отклоняет вызов #{ $id } от { $challenger }.
only-target-declines = Отклонить вызов может только тот, кого вызвали; автор вызова может его отменить { $buttons ->
        [yes] кнопкой «Отменить».
       *[no] (/cancel).
    }
only-author-cancels = Отменить вызов может только его автор.
cancelled = Вызов #{ $id } отменён.
nothing-to-cancel = У вас здесь нет открытых вызовов.
which-to-cancel = У вас здесь несколько открытых вызовов: { $list }{ $more ->
    [0] {""}
   *[other] , и ещё { $more }
}. Уточните, какой, например: /cancel { $first }.
cancel-brief = #{ $id } ({ $terms })
expired = Вызов #{ $id } от { $challenger } истёк.
not-enough-chips = У { $who } { $has } { $has ->
        [one] фишка
        [few] фишки
       *[many] фишек
    } — не хватает на ставку в { $stake } { $stake ->
        [one] фишку
        [few] фишки
       *[many] фишек
    }.
stake-not-covered = В этой партии у каждого игрока должно быть не меньше { $stake } { $stake ->
        [one] фишки
        [few] фишек
       *[many] фишек
    }; у одного из вас их уже нет.
unknown-player = Я пока не знаю @{ $handle }.

## Партии

game-started = Партия #{ $id }: { $white } (белые) против { $black } (чёрные) · { $terms }.{ $pair_limit ->
        [yes] {" "}Без рейтинга: сегодня вы уже сыграли друг с другом 3 рейтинговые партии (F2).
       *[no] {""}
    } { $white }, ваш ход.
no-first-move = Партия #{ $id } отменена: от { $who } так и не было первого хода (F1); она не засчитывается.
already-played = Ход { $recorded } уже сделан; сейчас ходит соперник.
too-many-pictures = Для вас это уже больше { $max } { $max ->
        [one] картинки, подсказки или разбора
        [few] картинок, подсказок и разборов
       *[many] картинок, подсказок и разборов
    } в минуту; подождите немного.
record-more = Партия #{ $id }, продолжение: { $moves }
no-game-here = У вас нет партии в этом чате.
several-games = У вас здесь несколько партий ({ $ids }); укажите номер партии: /move { $first } c3-d4, /board { $first }, /resign { $first }.
several-games-for = У вас здесь несколько партий ({ $ids }); укажите номер партии: /{ $command } { $first }.
several-games-move = У вас здесь несколько партий ({ $ids }); укажите номер партии: /move { $first } { $text }, /board { $first }, /resign { $first }.
no-such-game = В этом чате нет партии #{ $id }.
not-your-game = Вы не играете в партии #{ $id }.
game-is-over = Партия #{ $id } окончена.
not-your-turn = Сейчас не ваш ход.
confirm-needed = Ход { $recorded } заканчивается в вашем доме после срока вывода ({ $deadline }-й ход), а это сразу проигрывает партию (правило C6). { $buttons ->
        [yes] Чтобы всё равно сделать его, нажмите «Подтвердить».
       *[no] Чтобы всё равно сделать его, отправьте /confirm.
    }
nothing-to-confirm = Нет хода, который ждёт /confirm.
resign-ask = Сдать партию #{ $id }? Нажмите «{ btn-resign }» ещё раз в течение { $seconds } { $seconds ->
        [one] секунды
       *[other] секунд
    }, чтобы сдаться.
after-move = { $mover } ходит { $recorded }.{ $offer_declined ->
        [yes] {" "}Предложение ничьей отклонено.
       *[no] {""}
    } { $status }
status = Ход { $move_no }{ $clocks ->
        [none] {""}
       *[other] {" · "}{ $clocks }
    }{ $deadline ->
        [none] {""}
       *[other] {" · "}срок вывода: { $deadline }-й ход
    }{ $limit ->
        [none] {""}
       *[other] {" · "}предел: { $limit } { $limit ->
            [one] ход
            [few] хода
           *[many] ходов
        }
    } · ходит { $to_move }
status-over = Партия окончена.
status-clocks = { $white } { $white_clock } · { $black } { $black_clock }
board-info = Ход { $move_no }{ $deadline ->
        [none] {""}
       *[other] {" · "}срок вывода: { $deadline }-й ход
    }{ $limit ->
        [none] {""}
       *[other] {" · "}предел: { $limit } { $limit ->
            [one] ход
            [few] хода
           *[many] ходов
        }
    }
board-caption = Партия #{ $id }. { $status }
rules-result = { $winner ->
        [white] Партия #{ $id } окончена: победа { $name } (белые) — { $cause } ({ $rule }).
        [black] Партия #{ $id } окончена: победа { $name } (чёрные) — { $cause } ({ $rule }).
       *[none] Партия #{ $id } окончена: ничья — { $cause } ({ $rule }).
    }
flagged = Партия #{ $id }: у { $loser } вышло время — победа { $winner } (T1).
resigned = Партия #{ $id }: { $loser } сдаётся — победа { $winner } (T2).
resigned-annulled = Партия #{ $id }: { $loser } сдаётся, а сыграно не больше 10 ходов, — партия аннулирована (R).
rating-changes = Рейтинг: { $changes }.
rating-change = { $name } { $after } ({ $sign ->
        [plus] +
        [minus] −
       *[zero] ±
    }{ $delta })
solo-no-draw = В одиночной тренировке ничью предложить некому: /resign прекращает попытку.
draw-offered = { $by } предлагает ничью. { $to }: { $buttons ->
        [yes] кнопки ниже — принять или отклонить.
       *[no] /draw — принять, /nodraw — отклонить.
    }
draw-already-offered = Вы уже предложили ничью.
draw-agreed = Партия #{ $id }: ничья по согласию (T2).
no-draw-offer = Ничью никто не предлагал — отклонять нечего.
draw-declined = { $by } отклоняет ничью.
abort-too-late = Отменять партию уже поздно: обе стороны сделали ход. Можно сдаться (/resign) или предложить ничью (/draw).
aborted = { $by } отменяет партию #{ $id }; она не засчитывается.
not-monitored = В партии #{ $id } нет контроля активности.
claim-on-own-turn = Сейчас ваш ход; забрать партию можно, только пока соперник заставляет вас ждать.
claim-too-early = { $who } не ходит уже { $idle }; забрать партию можно после { $limit } бездействия.
idle-notice = Партия #{ $id }: { $idler } не ходит уже { $idle }. { $other } может забрать партию { $buttons ->
        [yes] кнопкой «Забрать партию»
       *[no] командой /claim
    } (D6).
abandoned-win = Партия #{ $id } брошена игроком { $loser } — победа { $winner } (D6).
abandoned-void = Партия #{ $id } брошена игроком { $loser }, а сыграно не больше 10 ходов, — партия аннулирована (D6).
auto-moved = Партия #{ $id }: у { $who } вышло время на ход, поэтому стол сам сыграл { $recorded } (D6).
reminder = { $who }, ваш ход в партии #{ $id }: осталось { $left }.
games-none = У вас нет неоконченных партий.
games-line = #{ $id } { $rules } против { $opponent } — { $my_turn ->
        [yes] ваш ход
       *[no] ход соперника
    }{ $here ->
        [yes] {""}
       *[no] {" "}(в другом чате)
    }
record = Партия #{ $id }, { $white } – { $black }, { $rules }: { $moves ->
        [none] ходов пока нет
       *[other] { $moves }
    }{ $outcome ->
        [none] {""}
       *[other] {" "}— { $outcome }
    }
record-result = { $result ->
        [white] победа { $name } (белые)
        [black] победа { $name } (чёрные)
        [void] партия аннулирована
       *[draw] ничья
    }{ $cause ->
        [none] {""}
       *[other] , { $cause }
    }
no-moves-from = С { $square } сейчас ходить некуда.
moves-from = С { $square } можно пойти на { $list }.
bad-square = «{ $text }» — не клетка.
internal-error = У нас что-то пошло не так; ничего не изменилось. Попробуйте ещё раз.
conflict = Партия изменилась, пока обрабатывалось ваше сообщение; ничего не изменилось. Посмотрите /board и попробуйте ещё раз.
help =
    Уголки и шашки (испанские/португальские) в чате.
    /challenge @имя [ВАРИАНТ | damas [flying|short] [movetime 30s] [monitor]] [10+5 | 30s+2 | 1d | none] [rated|casual] [white|black|random] — без @имя: принять может любой
    /accept, /decline, /cancel [N] — принять, отклонить или отменить вызов (или нажмите его кнопки)
    Ходы пишите текстом: c3-d4, c3 e5, c3e3e5 (шашки: d3xf5, 11-15). Если партий несколько: /move N c3-d4
    /moves c3 — куда может пойти c3 · /board · /games · /record N
    /resign · /draw (предложить или принять) · /nodraw · /abort (пока оба не сделали ход) · /confirm · /claim — или кнопки под доской
    /rating [@имя] [вариант] — рейтинг и график · /top [вариант] [month] [global] — таблица лидеров · /chips
    /rules [вариант] — правила
    /lang [en|ru|it|pt|auto] — язык ответов (от админа группы — язык чата)
    /tournament arena|swiss|roundrobin [вариант] [время] … — турнир здесь (его админы) · /join · /withdraw · /standings [N]
    /play bot [1-5] [вариант] [время] [white|black] — игра со встроенным движком (без рейтинга) · /hint · /review N — законченная партия анимацией
    /train [вариант] [vs bot 1-5 | vs @user | solo] [время] — тренировочный зал (без рейтинга, любой вариант, можно /undo и /hint); solo: перейдите в угол один за наименьшее число ходов
    Варианты: classic3x3 (по умолчанию), classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training:…
option-help = { $option ->
       *[game] Номер партии (#12)
        [challenge] Номер вызова
        [opponent] Кому (никому: любой здесь)
        [variant] Игра и вариант
        [time] Контроль времени: 10+5, 30s+2, 1d или none
        [rated] На рейтинг или нет
        [color] Ваш цвет
        [stake] Фишки на кону (рейтинговые шашки)
        [move] Ход: c3-d4, d3xf5, 11-15
        [square] Поле: c3
        [player] Чей рейтинг
        [kind] classic3x3, classic3x4, diagonal3x3, damas
        [month] Только этот месяц
        [global] Все, не только этот чат
        [language] en, ru, pt, it или auto
        [against] С кем: ни с кем (соло), с ботом или с названным игроком
        [friend] Друг для тренировки
        [level] Уровень бота
        [room] classic3x3, triangle, … или training:classic3x3,diag,home=a1-b2
        [train-time] Контроль времени: 10+5, 30s+2, 1d или none (по умолчанию)
        [bot-variant] classic3x3, triangle, halma16, damas, …
        [what] arena, swiss, roundrobin, start или cancel
        [settings] rated, in 10m, at 18:00, 60m, 5 rounds
        [tournament] Номер турнира
    }
command-help = { $command ->
        [start] С чего начать: что умеет бот
        [help] Все команды
        [challenge] Вызвать игрока (или любого в чате) на партию
        [play] Партия с ботом: /play bot 3 classic3x3 5+3
        [accept] Принять вызов
        [decline] Отклонить вызов
        [cancel] Отменить свой вызов
        [m] Сделать ход: /m c3-d4
        [move] Сделать ход: /move c3-d4
        [moves] Куда может пойти шашка: /moves c3
        [board] Показать доску
        [games] Ваши неоконченные партии
        [record] Запись партии
        [resign] Сдаться
        [draw] Предложить ничью или принять её
        [nodraw] Отклонить предложение ничьей
        [abort] Отменить партию, пока оба не сделали ход
        [confirm] Сделать ход, который сразу проигрывает
        [claim] Забрать партию, брошенную соперником
        [hint] Ход движка для вас (с ботом и в тренировочном зале)
        [review] Законченная партия анимацией, с переломными моментами
        [train] Тренировочный зал: в одиночку, с ботом или с другом
        [undo] Взять назад свой последний ход (тренировочный зал)
        [rating] Рейтинг и график
        [top] Таблица лидеров
        [chips] Ваши фишки
        [lang] Выбрать язык
        [tournament] Создать, начать или отменить турнир в чате
        [join] Вступить в турнир этого чата
        [withdraw] Выйти из турнира этого чата
        [standings] Таблица турнира
       *[rules] Правила варианта
    }
unseen-player = Я ещё не знаком с @{ $handle }: @{ $handle }, сначала отправьте мне /start, а потом /accept здесь.
rules-corners = { $rules }: цель — занять своими шашками все клетки дома соперника (C1). Ход — это шаг на соседнюю пустую клетку { $diagonal ->
        [yes] в любом из восьми направлений
       *[no] по вертикали или горизонтали
    } или цепочка прыжков через соседние шашки любого цвета; остановиться можно после любого прыжка, дважды вставать на одну клетку нельзя (C2). Первыми ходят белые; последний ход всегда за чёрными, поэтому если оба займут дом соперника на одном и том же ходу — ничья (C5).{ $deadline ->
        [none] {""}
       *[other] {" "}Все шашки нужно вывести из своего дома за { $deadline } { $deadline ->
            [one] ход
            [few] хода
           *[many] ходов
        }; после срока вывода ход, который заканчивается в своём доме, проигрывает партию (C6).{ $home_exemption ->
            [yes] {" "}Шашка, запертая соперником в своём доме, срок вывода не нарушает (C6).
           *[no] {""}
        }
    }{ $limit ->
        [none] {""}
       *[other] {" "}После { $limit }-го хода побеждает тот, у кого больше шашек в доме соперника (C7).
    } Позиция, повторившаяся трижды, — ничья; если ходить нечем — тоже ничья (C7).{ $no_blocking ->
        [yes] {" "}Запирать шашки соперника нельзя (C8).
       *[no] {" "}Запирать можно (правило C8 не действует).
    }{ $target_lock ->
        [yes] {" "}Шашка, вошедшая в дом соперника, может ходить внутри него, но не может его покинуть (C10).
       *[no] {""}
    }
rules-damas = Шашки (8×8, испанские/португальские): простые шашки ходят на одну клетку по диагонали вперёд и бьют только вперёд (D2). Бить обязательно, и взятие продолжается, пока есть что бить; бить нужно как можно больше шашек, а при равенстве — как можно больше дамок (D4). Простая шашка, дошедшая до последнего ряда, становится дамкой. { $flying ->
        [yes] Дамки дальнобойные: ходят по диагонали на любое расстояние и бьют издалека (D3).
       *[no] Дамки короткие: ходят на одну клетку по диагонали в любую сторону (D3).
    } Проигрывает тот, у кого не осталось шашек или ходов (D5).

## Рейтинг

unknown-kind = «{ $word }» — такого рейтинга нет; есть { $kinds }.
no-rated-games = У игрока { $name } пока нет рейтинговых партий (все начинают с 1000).
rating-title = Рейтинг { $name }:
rating-line = { $kind }: { $rating }{ $rank ->
        [none] {""}
       *[other] {" "}(#{ $rank })
    } · { $monthly } в этом месяце{ $monthly_rank ->
        [none] {""}
       *[other] {" "}(#{ $monthly_rank })
    } · { $games } { $games ->
        [one] партия
        [few] партии
       *[many] партий
    }: { $won } { $won ->
        [one] победа
        [few] победы
       *[many] побед
    }, { $drawn } { $drawn ->
        [one] ничья
        [few] ничьи
       *[many] ничьих
    }, { $lost } { $lost ->
        [one] поражение
        [few] поражения
       *[many] поражений
    }
chart-title = Рейтинг { $name } · { $kind }
chart-footer = { $games ->
        [one] { $games } партия
        [few] { $games } партии
       *[many] { $games } партий
    } · сейчас { $rating }
top-scope = Таблица лидеров · { $kind } · { $month ->
        [none] за всё время
       *[other] за месяц { $month }
    } · { $global ->
        [yes] по всем чатам
       *[no] в этом чате
    }
top-empty = { $scope }: пока никто не сыграл ни одной рейтинговой партии.
top-line = { $place }. { $name } { $rating } ({ $games } { $games ->
        [one] партия
        [few] партии
       *[many] партий
    })
top-you = … { $place }. { $name } { $rating } (вы)
chips = У { $name } { $chips } { $chips ->
        [one] фишка
        [few] фишки
       *[many] фишек
    }.

## Турниры

tournament-terms = { $format ->
        [arena] Арена
        [swiss] Швейцарка
       *[roundrobin] Круговой турнир
    } #{ $id }: { $rules } · { $time } · { $rated ->
        [yes] на рейтинг
       *[no] без рейтинга
    }{ $rounds ->
        [none] {""}
       *[other] {" · "}туров: { $rounds }
    }{ $minutes ->
        [none] {""}
       *[other] {" · "}{ $minutes } мин.
    }
tournament-card = 🏆 { $terms }
    { $status ->
        [open] Начало в { $starts }. Нажмите «Вступить» или отправьте /join, чтобы играть.
        [running] Идёт.
        [finished] Завершён: смотрите таблицу.
       *[cancelled] Отменён.
    }
    { $count ->
        [0] Пока никто не вступил.
       *[other] Игроков: { $count } — { $players }
    }
tournament-usage = Создать турнир: /tournament arena|swiss|roundrobin ВАРИАНТ КОНТРОЛЬ [rated|casual], с настройками: in 10m или at 18:00 (UTC; по умолчанию через 5 минут), длина арены (60m), число туров швейцарки (5 rounds). Затем /tournament start, /tournament cancel, /join, /withdraw, /standings.
tournament-groups-only = Турниры играют в группах: создайте его там.
tournament-admins-only = Создать турнир здесь могут только администраторы группы.
tournament-busy = В этом чате уже идёт турнир #{ $id }: только один за раз.
tournament-needs-clock = Турниру нужны часы: укажите контроль, например 3+2.
tournament-bad-word = Не понимаю «{ $word }» в турнире: см. /tournament.
tournament-bad-start = «{ $text }» — не время начала: скажите in 10m, in 2h или at 18:00 (UTC, в пределах суток).
tournament-bad-rounds = В швейцарке от 1 до { $max } туров.
tournament-bad-length = Арена длится от { $min } до { $max } минут.
tournament-none = В этом чате нет открытого или идущего турнира.
no-such-tournament = В этом чате нет турнира #{ $id }.
tournament-not-creator = Начать или отменить турнир #{ $id } может только его создатель.
tournament-already-started = Турнир #{ $id } уже начался.
tournament-cancelled = Турнир #{ $id } отменён{ $why ->
        [few] : пришло меньше двух игроков.
       *[creator] {"."}
    }
tournament-joined = { $name } вступает в турнир #{ $id } (игроков: { $count }).
tournament-back = { $name } снова в турнире #{ $id }.
tournament-already-in = Вы уже в турнире #{ $id }.
tournament-not-in = Вы не играете в турнире #{ $id }.
tournament-withdrew = { $name } выходит из турнира #{ $id }.
tournament-full = Турнир #{ $id } заполнен ({ $max } { $max ->
        [one] игрок
        [few] игрока
       *[other] игроков
    }).
tournament-closed = Турнир #{ $id } уже идёт и новых игроков не принимает.
tournament-started = Турнир #{ $id } начинается, игроков: { $count }{ $rounds ->
        [none] {""}
       *[other] , туров: { $rounds }
    }{ $minutes ->
        [none] {""}
       *[other] , { $minutes } мин.
    }. Удачи!
tournament-round = Турнир #{ $id }, тур { $round } из { $rounds }:
tournament-pairing = #{ $game }: { $white } (белые) против { $black } (чёрные)
tournament-bye = { $name } пропускает тур{ $point ->
        [yes] {" "}(очко)
       *[no] {""}
    }
tournament-forfeit = { $winner } побеждает: { $loser } выбыл
tournament-game-started = Партия #{ $id } турнира #{ $tournament }: { $white } (белые) против { $black } (чёрные) · { $time } · { $rated ->
        [yes] на рейтинг
       *[no] без рейтинга
    }. { $white }, ваш ход.
tournament-standings = Турнир #{ $id }{ $status ->
        [final] , итоговая таблица:
       *[live] { $round ->
            [none] , таблица:
           *[other] , таблица после тура { $round }:
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
       *[other] {" · "}перф. { $performance }
    }{ $paused ->
        [yes] {" "}(на паузе)
       *[no] {""}
    }
tournament-no-show = Партия #{ $id }: { $who } так и не сделал первый ход и проигрывает её в турнире #{ $tournament }.{ $paused ->
        [yes] {" "}{ $who } на паузе: /join, чтобы вернуться.
       *[no] {""}
    }
tournament-over = Турнир #{ $id } завершён. Победитель: { $winner }! 🏆
tournament-place = { $format ->
        [arena] Арена
        [swiss] Швейцарка
       *[roundrobin] Круговой турнир
    } #{ $id }: { $place }-е место из { $of }
standings-column = { $column ->
        [place] №
        [name] Игрок
        [score] Очки
        [games] Партии
        [change] ±
       *[performance] Перф.
    }
btn-join = Вступить
btn-withdraw = Выйти

## Языки

lang-name = { $code ->
        [ru] Русский
        [pt] Português
        [it] Italiano
       *[en] English
    }
lang-set = { $whose ->
        [chat] { $lang ->
            [none] В этом чате я буду отвечать каждому на языке его приложения.
           *[other] Язык этого чата теперь — { $lang }.
        }
       *[you] { $lang ->
            [none] Я буду отвечать вам на языке вашего приложения.
           *[other] Ваш язык теперь — { $lang }.
        }
    }
lang-unknown = Языка «{ $code }» я не знаю; выберите один из: { $list } (или auto).
lang-now = Язык ответов здесь — { $lang }. Сменить его: /lang КОД, где КОД — { $list } (или auto).

## Строки самой консоли

console-welcome = консоль ugolki — пишите строки вида ИМЯ: текст (alice: /challenge @bob), /help — список команд, ИМЯ: [Надпись] — нажать кнопку, Ctrl-D — выход.
console-web-at = Страницы партий: { $url }/g/ и номер партии, например { $url }/g/1 (только партии в группах; эта консоль — группа).
console-web-game = Партия #{ $id } в браузере: { $url }
console-web-seat = { $name } играет там, открыв { $url } (один раз, в течение { $minutes } мин.)
console-line-shape = пишите строки вида ИМЯ: текст, например alice: /challenge @bob
console-bad-name = «{ $name }» здесь не годится как имя: можно буквы, цифры, _ . - (не больше { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    })
console-line-too-long = строка длиннее { $max } { $max ->
        [one] байта
        [few] байтов
       *[many] байтов
    }; она пропущена
console-not-text = эта строка не в кодировке UTF-8; она пропущена
console-no-such-button = кнопки [{ $label }] нет
cmd-bot-level = Уровень бота — число от 1 до { $max }: /play bot 3 classic3x3 5+3
bot-unrated = Партии с ботом не идут в рейтинг, и соперника называть не нужно: уберите @user, rated и stake.
hint = Подсказка для партии #{ $id }: { $recorded }
hint-only-vs-bot = Подсказки — для партий с ботом (/play bot) и в тренировочном зале (/train), а не между людьми.
review-not-over = Партия #{ $id } ещё идёт: /review — для законченных партий.
review-intro = Партия #{ $id }: { $white } – { $black }, ходов: { $moves }.
review-tail = Долгая партия: разбор охватывает её последние { $shown } полуходов из { $total }.
turning-point = Ход { $move_no }, { $who }: { $played } стоил { $whole },{ $tenth } { $damas ->
        [yes] шашки
       *[no] шага
    }; движок предпочитает { $better }.
turning-point-decisive = Ход { $move_no }, { $who }: { $played } { $won ->
        [yes] упустил выигранную партию
       *[no] проигрывает партию по форсу
    }; движок предпочитает { $better }.
turning-point-deadline = Ход { $move_no }, { $who }: после { $played } в своём доме осталось больше шашек, чем ходов, чтобы вывести их до срока вывода ({ $deadline }-й ход, правило C6); движок предпочитает { $better }.
turning-point-deadline-seen = Ход { $move_no }, { $who }: { $played } { $won ->
        [yes] упускает срок вывода ({ $deadline }-й ход, правило C6), который движок видит выигранным
       *[no] отдаёт срок вывода ({ $deadline }-й ход, правило C6) сопернику, насколько видит движок
    }; движок предпочитает { $better }.
review-no-turning-points = Ни один ход не изменил партию заметно: переломных моментов нет.
solo-turning-point = Ход { $move_no }: { $played } стоил { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[other] { $moves } ходов
    }; путь короче начинается с { $better }.
cmd-train-vs = После vs укажите bot [УРОВЕНЬ] или @user: /train triangle vs bot 2, /train vs @bob или /train solo.
train-corners-only = Тренировочный зал — для вариантов уголков: /train classic3x3 solo, /train training:triangle,ortho vs bot 3.
train-unrated = Тренировочный зал без рейтинга: уберите rated и stake.
solo-started = Тренировка #{ $id }, { $rules }: перейдите в дальний угол за наименьшее число ходов. { $minimum ->
        [0] Доказанный минимум для этой формы неизвестен.
        [one] Доказанный минимум — { $minimum } ход.
        [few] Доказанный минимум — { $minimum } хода.
       *[other] Доказанный минимум — { $minimum } ходов.
    } /hint покажет путь, /undo вернёт ход.
solo-crossed = Тренировка #{ $id }: { $who } перешёл за { $moves } { $moves ->
        [one] ход
        [few] хода
       *[other] ходов
    }. { $minimum ->
        [0] Доказанный минимум для этой формы неизвестен.
       *[other] { $optimal ->
            [yes] Это доказанный минимум: идеальный переход!
           *[no] Доказанный минимум — { $minimum } { $minimum ->
                [one] ход
                [few] хода
               *[other] ходов
            }.
        }
    }
solo-not-crossed = Тренировка #{ $id }: { $moves } { $moves ->
        [one] ход
        [few] хода
       *[other] ходов
    }, а угол не заполнен; попытка окончена. /train solo — попробовать снова.
solo-abandoned = Тренировка #{ $id } брошена и не засчитывается.
solo-hint = Подсказка для тренировки #{ $id }: { $recorded }, затем ещё { $left } { $left ->
        [one] ход
        [few] хода
       *[other] ходов
    } ({ $shortest ->
        [yes] кратчайший путь
       *[no] кратчайший путь, найденный движком; может быть и короче
    }).
solo-no-route = Движок не нашёл отсюда пути в угол в партии #{ $id }: попробуйте /undo.
undone = Партия #{ $id }: { $who } взял назад { $plies } { $plies ->
        [one] ход
        [few] хода
       *[other] ходов
    }.
undo-only-training = Ходы берут назад только в тренировочном зале (/train), не в рейтинговых и товарищеских партиях.
undo-nothing = В партии #{ $id } нечего брать назад.
undo-opponent-moved = Соперник уже ответил: взять назад можно только свой последний ход, до ответа.

## Публичные веб-страницы
web-game-title = Партия №{ $id }: { $white } – { $black }
web-moves = Ходы
web-resign-sure = Точно? Нажмите ещё раз, чтобы сдаться
web-no-moves = Ходов пока нет.
web-at-ply = После { $ply } из { $plies } { $plies ->
        [one] полухода
       *[other] полуходов
    }
web-first = В начало
web-previous = Назад
web-next = Вперёд
web-latest = Сейчас
web-live = Партия идёт: страница показывает каждый ход (без скриптов она обновляется каждые { $seconds } с).
web-download-pdn = Скачать запись (PDN)
web-replay-gif = Анимированный повтор (GIF)
web-no-game = Публичной партии №{ $id } нет. Партии в личных чатах принадлежат их игрокам.
web-top-title = Рейтинги
web-open-from-chat = Откройте партию с её доски в чате или по ссылке на неё.
web-no-page = Такой страницы нет. Партии — по адресу /g/ и номер, игроки — /p/, турниры — /t/; таблицы рейтинга — на первой странице.
web-seat-gone = Эта ссылка для входа уже использована или устарела. Ссылки каждой партии печатаются в консоли, когда она начинается.
web-activity-signing-in = Входим через Discord…
web-not-seated = Здесь ходят только игроки партии: откройте доску из чата партии (или по ссылке для входа из консоли).
web-too-many = Слишком много запросов с вашего адреса: попробуйте через { $seconds } с.
web-game-at = Страница партии: { $url }
web-top-at = Все рейтинги: { $url }
web-no-player = Игрока №{ $id } нет.
web-player-title = Рейтинг { $name }
web-player-games = Партии в группах
web-no-public-games = Партий в группах пока нет.
web-game-line = №{ $id } { $white } – { $black }, { $rules }{ $outcome ->
        [none] {" "}· идёт
       *[other] {" "}— { $outcome }
    }
web-no-tournament = Турнира №{ $id } нет или его нельзя показать.
web-tournament-at = Турнир в браузере: { $url }
web-tournament-games = Партии
web-tournament-live = Турнир идёт: страница обновляется каждые { $seconds } с.
