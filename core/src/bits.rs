//! Bitboards: one bit per square, index `rank * WIDTH + file`.
//!
//! Two widths exist: `u64` for 8×8 boards and [`U256`] for 16×16. The rules code is generic
//! over [`Bits`], so every variant runs the same code on the smallest type that holds it.
//! Both types fit their board exactly (64 = 8×8, 256 = 16×16), so shifting a bit off the top
//! or bottom drops it, and only the left/right edges need masks.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A direction on the board: file delta and rank delta, each in -1..=1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dir {
    pub df: i8,
    pub dr: i8,
}

impl Dir {
    pub const N: Dir = Dir { df: 0, dr: 1 };
    pub const E: Dir = Dir { df: 1, dr: 0 };
    pub const S: Dir = Dir { df: 0, dr: -1 };
    pub const W: Dir = Dir { df: -1, dr: 0 };
    pub const NE: Dir = Dir { df: 1, dr: 1 };
    pub const SE: Dir = Dir { df: 1, dr: -1 };
    pub const SW: Dir = Dir { df: -1, dr: -1 };
    pub const NW: Dir = Dir { df: -1, dr: 1 };

    /// The four orthogonal directions.
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
    /// The four diagonal directions.
    pub const DIAGONAL: [Dir; 4] = [Dir::NE, Dir::SE, Dir::SW, Dir::NW];
    /// All eight directions, orthogonal first.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::E,
        Dir::S,
        Dir::W,
        Dir::NE,
        Dir::SE,
        Dir::SW,
        Dir::NW,
    ];

    #[must_use]
    pub const fn reverse(self) -> Dir {
        Dir {
            df: -self.df,
            dr: -self.dr,
        }
    }
}

/// A set of squares of a board that fills the type exactly.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Side length of the board this type holds.
    const WIDTH: u8;
    const EMPTY: Self;
    const FULL: Self;
    /// Every square except those on the first file (a).
    const NOT_FIRST_FILE: Self;
    /// Every square except those on the last file.
    const NOT_LAST_FILE: Self;

    fn bit(index: usize) -> Self;
    /// Shift towards higher indices; `n` is in 1..64.
    #[must_use]
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower indices; `n` is in 1..64.
    #[must_use]
    fn shr(self, n: u32) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// Index of the lowest set bit; the set must not be empty.
    fn first(self) -> usize;
    #[must_use]
    fn without_first(self) -> Self;

    #[inline]
    fn has(self, index: usize) -> bool {
        !(self & Self::bit(index)).is_empty()
    }

    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// Every square moved one step in `d`; squares leaving the board vanish.
    #[inline(always)]
    #[must_use]
    fn shift(self, d: Dir) -> Self {
        let delta = i32::from(d.dr) * i32::from(Self::WIDTH) + i32::from(d.df);
        let moved = if delta > 0 {
            self.shl(delta as u32)
        } else {
            self.shr((-delta) as u32)
        };
        match d.df {
            1 => moved & Self::NOT_FIRST_FILE,
            -1 => moved & Self::NOT_LAST_FILE,
            _ => moved,
        }
    }

    /// Iterate over the indices of the set squares, lowest first.
    #[inline]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterator over set bits, lowest index first.
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let i = self.0.first();
            self.0 = self.0.without_first();
            Some(i)
        }
    }
}

const fn file_mask_u64(file: u32) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < 8 {
        m |= 1u64 << (r * 8 + file);
        r += 1;
    }
    m
}

impl Bits for u64 {
    const WIDTH: u8 = 8;
    const EMPTY: Self = 0;
    const FULL: Self = u64::MAX;
    const NOT_FIRST_FILE: Self = !file_mask_u64(0);
    const NOT_LAST_FILE: Self = !file_mask_u64(7);

    #[inline(always)]
    fn bit(index: usize) -> Self {
        1u64 << index
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn first(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn without_first(self) -> Self {
        self & self.wrapping_sub(1)
    }
}

/// 256 bits in four little-endian limbs: bit `i` is bit `i % 64` of limb `i / 64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct U256(pub [u64; 4]);

const fn file_mask_u256(file: u32) -> U256 {
    let mut limbs = [0u64; 4];
    let mut r = 0;
    while r < 16 {
        let i = r * 16 + file;
        limbs[(i / 64) as usize] |= 1u64 << (i % 64);
        r += 1;
    }
    U256(limbs)
}

const fn not_u256(x: U256) -> U256 {
    U256([!x.0[0], !x.0[1], !x.0[2], !x.0[3]])
}

macro_rules! limbwise {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for U256 {
            type Output = U256;
            #[inline(always)]
            fn $f(self, o: U256) -> U256 {
                U256([
                    self.0[0] $op o.0[0],
                    self.0[1] $op o.0[1],
                    self.0[2] $op o.0[2],
                    self.0[3] $op o.0[3],
                ])
            }
        }
        impl $tra for U256 {
            #[inline(always)]
            fn $fa(&mut self, o: U256) {
                *self = $tr::$f(*self, o);
            }
        }
    };
}
limbwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
limbwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
limbwise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for U256 {
    type Output = U256;
    #[inline(always)]
    fn not(self) -> U256 {
        not_u256(self)
    }
}

impl Bits for U256 {
    const WIDTH: u8 = 16;
    const EMPTY: Self = U256([0; 4]);
    const FULL: Self = U256([u64::MAX; 4]);
    const NOT_FIRST_FILE: Self = not_u256(file_mask_u256(0));
    const NOT_LAST_FILE: Self = not_u256(file_mask_u256(15));

    #[inline(always)]
    fn bit(index: usize) -> Self {
        let mut l = [0u64; 4];
        l[index / 64] = 1u64 << (index % 64);
        U256(l)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        let a = self.0;
        let back = 64 - n;
        U256([
            a[0] << n,
            (a[1] << n) | (a[0] >> back),
            (a[2] << n) | (a[1] >> back),
            (a[3] << n) | (a[2] >> back),
        ])
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        let a = self.0;
        let back = 64 - n;
        U256([
            (a[0] >> n) | (a[1] << back),
            (a[1] >> n) | (a[2] << back),
            (a[2] >> n) | (a[3] << back),
            a[3] >> n,
        ])
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|l| l.count_ones()).sum()
    }
    #[inline(always)]
    fn first(self) -> usize {
        for (i, l) in self.0.iter().enumerate() {
            if *l != 0 {
                return i * 64 + l.trailing_zeros() as usize;
            }
        }
        256
    }
    #[inline(always)]
    fn without_first(self) -> Self {
        let mut l = self.0;
        for limb in &mut l {
            if *limb != 0 {
                *limb &= *limb - 1;
                break;
            }
        }
        U256(l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idx(w: usize, f: usize, r: usize) -> usize {
        r * w + f
    }

    fn check_shifts<B: Bits>() {
        let w = usize::from(B::WIDTH);
        for f in 0..w {
            for r in 0..w {
                let b = B::bit(idx(w, f, r));
                for d in Dir::ALL {
                    let nf = f as i32 + i32::from(d.df);
                    let nr = r as i32 + i32::from(d.dr);
                    let on = (0..w as i32).contains(&nf) && (0..w as i32).contains(&nr);
                    let got = b.shift(d);
                    if on {
                        assert_eq!(
                            got,
                            B::bit(idx(w, nf as usize, nr as usize)),
                            "{f},{r} {d:?}"
                        );
                    } else {
                        assert!(got.is_empty(), "{f},{r} {d:?} should leave the board");
                    }
                }
            }
        }
    }

    #[test]
    fn shifts_never_wrap_8x8() {
        check_shifts::<u64>();
    }

    #[test]
    fn shifts_never_wrap_16x16() {
        check_shifts::<U256>();
    }

    #[test]
    fn u256_iteration_and_count() {
        let s = U256::bit(3) | U256::bit(64) | U256::bit(200) | U256::bit(255);
        assert_eq!(s.count(), 4);
        assert_eq!(s.squares().collect::<Vec<_>>(), vec![3, 64, 200, 255]);
        assert!(s.has(200) && !s.has(199));
    }
}
