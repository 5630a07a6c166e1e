//! Zobrist keys: one random word per (side, square) for boards up to 16×16, one for the
//! side to move and one per king square (Damas). A position's key is the XOR of its
//! pieces' words, so equal positions get equal keys whatever moves led to them.

/// `splitmix64`, the usual generator for key tables (fixed seed: keys are the same in
/// every run, so searches are reproducible).
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const SQUARES: usize = 256;

/// `PIECE[side][square]`, then `KING[square]` (8×8 only), then the side to move.
pub(crate) struct Keys {
    pub piece: [[u64; SQUARES]; 2],
    pub king: [u64; 64],
    pub black_to_move: u64,
}

pub(crate) static KEYS: Keys = {
    let mut piece = [[0u64; SQUARES]; 2];
    let mut king = [0u64; 64];
    let mut state = 0x7567_6F6C_6B69_u64; // "ugolki"
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < SQUARES {
            let (s, k) = splitmix(state);
            state = s;
            piece[side][sq] = k;
            sq += 1;
        }
        side += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let (s, k) = splitmix(state);
        state = s;
        king[sq] = k;
        sq += 1;
    }
    let (_, black_to_move) = splitmix(state);
    Keys {
        piece,
        king,
        black_to_move,
    }
};

/// The XOR of `keys[i]` over the set bits `i` of `bits` (limb `l` holds squares `64 l ..`).
#[inline]
pub(crate) fn fold(keys: &[u64], limbs: &[u64]) -> u64 {
    let mut h = 0;
    for (l, &limb) in limbs.iter().enumerate() {
        let mut b = limb;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            h ^= keys[l * 64 + i];
            b &= b - 1;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.piece.iter().flatten().copied().collect();
        all.extend(KEYS.king);
        all.push(KEYS.black_to_move);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
