"""Divisors of large sizes and lengths: exact, proven, and bounded by the query's time limit."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import viewalgebra as va
from viewalgebra._analyses.divisors import PROVEN_BELOW, divisors, factorise  # noqa: TID251 -- the factorisation itself is under test


@settings(derandomize=True, deadline=None, max_examples=500)
@given(n=st.integers(1, 200_000))
def test_divisors_equal_trial_division(n):
    assert divisors(n) == [d for d in range(1, n + 1) if n % d == 0]


@settings(derandomize=True, deadline=None, max_examples=200)
@given(primes=st.lists(st.sampled_from([2, 3, 5, 7, 999_983, 1_000_003, 2_147_483_647,
                                        998_244_353, 1_000_000_007, 4_294_967_291]),
                       min_size=1, max_size=4))
def test_factorisation_of_products_of_known_primes(primes):
    n = 1
    for p in primes:
        n *= p
    assume(n < PROVEN_BELOW)
    expected: dict[int, int] = {}
    for p in primes:
        expected[p] = expected.get(p, 0) + 1
    assert factorise(n) == expected
    found = divisors(n)
    assert found == sorted(set(found)) and all(n % d == 0 for d in found)
    assert len(found) == math.prod(k + 1 for k in expected.values())


@pytest.mark.parametrize("size", [10**16, 2**62, 2**70, 1_000_000_007 * 998_244_353, 10**23])
def test_huge_dims_answer_at_once(size):
    started = time.monotonic()
    answer = va.max_vector_length(va.View(va.Buffer((size,), "i8")), 0, timeout=2)
    assert answer.length == size and answer.legal == tuple(divisors(size))
    assert time.monotonic() - started < 2


def test_a_huge_length_is_bounded_too():
    view = va.View(va.Buffer((8, 4)))
    answer = va.max_vector_length(view, 1, 99_999_999_999_999_999_999, timeout=2)
    assert answer.length == 1  # 4 does not divide the run 10**20 - 1


def test_factorising_stops_at_its_deadline_and_refuses_beyond_the_proven_bound():
    with pytest.raises(va.errors.QueryTimeoutError):
        factorise(1_000_000_007 * 998_244_353, deadline=time.monotonic() - 1)
    with pytest.raises(va.errors.TooComplexError, match="too large to factorise with a proof"):
        factorise(PROVEN_BELOW)
