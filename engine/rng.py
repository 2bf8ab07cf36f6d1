"""The engine's only source of chance: a small seeded generator whose whole state is one integer.

A race must be a deterministic function of its record, and its state must round-trip through JSON,
so the generator state is a plain ``int`` (SplitMix64) that lives inside the race state. Python's
``random.Random`` would need a 625-integer state and ties us to CPython's implementation.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
"""SplitMix64's increment (the golden ratio): what one draw adds to the state."""


class Rng:
    """SplitMix64: fast, tiny state, good enough statistics for shuffling cards and drawing seats."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int, *salt: int | str) -> Rng:
        """A generator for ``seed``, optionally split by a salt (a stream per purpose or per rider)."""
        r = cls(seed)
        for s in salt:
            value = s if isinstance(s, int) else int.from_bytes(s.encode("utf-8")[:8].ljust(8, b"\0"), "big")
            r.state = (r.state ^ (value * _GAMMA)) & _MASK
            r.next64()
        return r

    @classmethod
    def split(cls, state: int, salt: int) -> Rng:
        """``Rng.from_seed(state, salt)`` for one integer salt, spelled out: the hot path of a stream per
        rider (Flamme Rouge draws a reshuffle's generator this way at every reshuffle)."""
        return cls((state ^ (salt * _GAMMA)) + _GAMMA)  # a first draw discarded: only its step of the state

    @staticmethod
    def after_draw(state: int) -> int:
        """The generator state after one draw from ``state``, without building a generator."""
        return (state + _GAMMA) & _MASK

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included."""
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 bits of precision."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffle_packed(self, items: MutableSequence[T], refill: int) -> None:
        """Fisher-Yates in place with one 64-bit draw serving several swaps: each index is the remainder of
        the draw divided by the number of candidates, the quotient kept for the next swap until it falls
        below ``refill`` (Flamme Rouge's decks: ``2**40``, a bias below 2**-34 per swap). The draws are
        :meth:`next64` written out on a local integer, the state stored once at the end: the same numbers
        without a method call per draw (this runs at every reshuffle of every race)."""
        s = self.state
        x = 0
        for k in range(len(items), 1, -1):  # k = i + 1 candidates for position i
            if x < refill:  # next64, spelled out
                s = (s + _GAMMA) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                x = z ^ (z >> 31)
            j = x % k  # divmod(x, k), without the call and its tuple
            x //= k
            i = k - 1
            items[i], items[j] = items[j], items[i]
        self.state = s

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
