//! Replays: an animated GIF that decodes to one frame per position (the start, then one per
//! move), each frame the board after that move with its path marked, within the size the
//! review promises (an 80-move game at most 200 KB).

use ugolki_core::engine::{self, Level};
use ugolki_core::game::{Game, Rules};
use ugolki_core::view::BoardView;
use ugolki_render::{Renderer, Scene};

/// The scenes of a game of `plies` moves between two beginner engines, from the start.
fn replay(rules: &str, plies: usize) -> (Vec<Scene>, usize) {
    let mut g = Game::new(&Rules::from_id(rules).unwrap());
    let frame = |g: &Game| {
        // As the review draws them: a finished game, so no side to move and one header.
        let mut v = BoardView::of_game(g);
        v.to_move = None;
        // `animate` leaves out the marks of who can move; the boards compared with its
        // frames have none either.
        v.movable.clear();
        v.must_capture = false;
        v.info = "Game #1".into();
        Scene::from_view(&v)
    };
    let mut scenes = vec![frame(&g)];
    for ply in 0..plies {
        let Some(c) = engine::choose(&g, Level::new(1).unwrap().settings(ply as u64)) else {
            break;
        };
        g.play_text(&c.text).unwrap();
        scenes.push(frame(&g));
    }
    let n = scenes.len();
    (scenes, n)
}

fn frames(gif_bytes: &[u8]) -> Vec<gif::Frame<'static>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif_bytes).expect("a GIF");
    let mut out = Vec::new();
    while let Some(f) = decoder.read_next_frame().expect("a frame") {
        out.push(f.clone());
    }
    out
}

#[test]
fn a_replay_decodes_to_one_frame_per_position_and_stays_small() {
    let r = Renderer::for_replays();
    for (rules, plies) in [("classic3x3", 80), ("damas", 80), ("halma16", 80)] {
        let (scenes, n) = replay(rules, plies);
        let bytes = r.animate(&scenes).unwrap();
        let f = frames(&bytes);
        assert_eq!(f.len(), n, "{rules}");
        assert!(
            bytes.len() <= 200 * 1024,
            "{rules}: {} KB for {} moves",
            bytes.len() / 1024,
            n - 1
        );
        // After the first, frames hold only what changed.
        let full = usize::from(f[0].width) * usize::from(f[0].height);
        let later: usize = f[1..]
            .iter()
            .map(|x| usize::from(x.width) * usize::from(x.height))
            .sum::<usize>()
            / (n - 1).max(1);
        assert!(later < full / 2, "{rules}: frames of {later} px on {full}");
    }
}

#[test]
fn each_frame_shows_the_board_after_its_move() {
    // Composing the replay frame by frame gives the same pixels as each board picture.
    let r = Renderer::default();
    let (scenes, _) = replay("classic3x3", 6);
    let bytes = r.animate(&scenes).unwrap();
    let f = frames(&bytes);
    let first = r.compose(&scenes[0]);
    let (w, h) = (first.width as usize, first.height as usize);
    let mut screen = vec![0u8; w * h];
    for (i, frame) in f.iter().enumerate() {
        let (fx, fy) = (usize::from(frame.left), usize::from(frame.top));
        let fw = usize::from(frame.width);
        for (k, &p) in frame.buffer.iter().enumerate() {
            if Some(p) != frame.transparent {
                screen[(fy + k / fw) * w + fx + k % fw] = p;
            }
        }
        let expected = r.compose(&scenes[i]);
        assert_eq!(screen, expected.pixels, "frame {i}");
    }
}

#[test]
fn an_empty_replay_is_an_error_not_a_panic() {
    assert!(Renderer::default().animate(&[]).is_err());
}
