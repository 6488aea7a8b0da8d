"""Exact divisors of large integers, by a factorisation that is proven and bounded in time.

Legal vector lengths are the divisors of a gcd of sizes, and a size can be 10^16 or 2^62. Trial
division up to the square root takes minutes there; here small primes are divided out, what is
left is proven prime (Miller-Rabin with bases that are deterministic below ``PROVEN_BELOW``) or
split by Pollard's rho (Brent's variant), and the search stops with ``QueryTimeoutError`` at its
deadline.
"""

from __future__ import annotations

import math
import time

from ..errors import QueryTimeoutError, TooComplexError

PROVEN_BELOW = 3_317_044_064_679_887_385_961_981
"""Miller-Rabin with the first 13 primes as bases is exact below this bound (Sorenson and Webster,
2015); numbers beyond it are refused rather than factorised on a probable-prime test."""

_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_SMALL = tuple(p for p in range(2, 1000) if all(p % q for q in range(2, math.isqrt(p) + 1)))


def divisors(n: int, deadline: float | None = None) -> list[int]:
    """Every divisor of ``n >= 1``, ascending. ``deadline`` is a ``time.monotonic()`` value."""
    found = [1]
    for p, k in sorted(factorise(n, deadline).items()):
        found = [d * p**e for d in found for e in range(k + 1)]
    return sorted(found)


def factorise(n: int, deadline: float | None = None) -> dict[int, int]:
    """The prime factorisation of ``n >= 1`` as ``{prime: exponent}``."""
    if n < 1:
        raise ValueError(f"factorise: {n} is not a positive integer")
    if n >= PROVEN_BELOW:
        raise TooComplexError(
            f"{n} is too large to factorise with a proof (sizes and lengths must stay below "
            f"{PROVEN_BELOW:.3e})")
    factors: dict[int, int] = {}
    for p in _SMALL:
        while n % p == 0:
            factors[p] = factors.get(p, 0) + 1
            n //= p
    pending = [n] if n > 1 else []
    while pending:
        m = pending.pop()
        if _is_prime(m):
            factors[m] = factors.get(m, 0) + 1
            continue
        d = _split(m, deadline)
        pending += [d, m // d]
    return factors


def _is_prime(n: int) -> bool:
    """Exact for ``n < PROVEN_BELOW`` (no factor below 1000 is left at this point)."""
    if n < 2:
        return False
    if n < 1_000_000:
        return all(n % p for p in _SMALL if p * p <= n)
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _split(n: int, deadline: float | None) -> int:
    """A non-trivial factor of the composite ``n`` (Pollard's rho, Brent's cycle search)."""
    for c in range(1, n):
        y, r, q, g = 2, 1, 1, 1
        x = ys = y
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                if deadline is not None and time.monotonic() > deadline:
                    raise QueryTimeoutError(f"factorising {n} took longer than the query's time limit")
                ys = y
                for _ in range(min(128, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                g = math.gcd(q, n)
                k += 128
            r *= 2
        if g == n:  # the batch overshot: step one at a time from the saved point
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = math.gcd(abs(x - ys), n)
        if g != n:
            return g
    raise TooComplexError(f"could not split {n}")  # unreachable for a composite n
