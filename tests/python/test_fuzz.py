"""Malformed and fuzzed dicts: a seeded run that feeds Layout and the functions broken input.
Nothing may crash or raise anything but ValueError, and each kind of error below must be reached."""
import copy
import json
import random
import re

import swizzle

# The error branches the fuzzed input is expected to reach, by the words of their message.
BRANCHES = {
    "not a layout at all": r"reg_bases|offset_bases|expected a dict|layout file|not a layout",
    "wrong JSON type": r"must be|expected|not a JSON value|a list|the (string|number)",
    "bad basis": r"bas(is|es)|coordinate|out of range|dims?\b",
    "shape": r"shape|tensor",
    "not a bijection": r"bijection|not invertible|maps to the same",
    "problem field": r"\((--[a-z-]+)\)",
    "bank model": r"lane|address|aligned|bank",
}


def mutate(rng, value, depth=0):
    """One random change somewhere in a JSON value."""
    if isinstance(value, dict) and value and depth < 4:
        key = rng.choice(sorted(value))
        roll = rng.random()
        if roll < 0.15:
            del value[key]
        elif roll < 0.25:
            value[rng.choice(["extra", "shape", "element_bits", "block_bases", key + "x"])] = rng.choice([1, "x", [], None])
        else:
            value[key] = mutate(rng, value[key], depth + 1)
        return value
    if isinstance(value, list) and value and depth < 4:
        i = rng.randrange(len(value))
        roll = rng.random()
        if roll < 0.15:
            del value[i]
        elif roll < 0.3:
            value.append(copy.deepcopy(value[i]))
        elif roll < 0.45:
            value[i] = copy.deepcopy(rng.choice(value))  # a basis twice: no longer a bijection
        else:
            value[i] = mutate(rng, value[i], depth + 1)
        return value
    return rng.choice([0, 1, -1, 3, 7, 2 ** 40, 2 ** 70, 1.5, "16", None, True, [], {}, [0, 0], [[0, 1]], value * 2 if isinstance(value, int) else value])


def seeds(data):
    names = ["seed_store", "seed_read", "xor2m_shared", "row_major_shared", "shape_8x8", "reader_2warps"]
    return [json.loads((data / "cli/data" / f"{n}.json").read_text()) for n in names]


def test_fuzzed_dicts_raise_only_value_error(data):
    rng = random.Random(27)
    originals = seeds(data)
    store, read = originals[0], originals[1]
    messages = []
    calls = 0
    for _ in range(400):
        target = rng.randrange(5)
        # The shared layouts' seeds for the shared argument, the accesses' for the others.
        pool = originals[2:4] if target == 2 else originals[:2] + originals[4:] if target in (1, 3) else originals
        broken = mutate(rng, copy.deepcopy(rng.choice(pool)))
        try:
            calls += 1
            if target == 0:
                swizzle.Layout(broken)
            elif target == 1:
                swizzle.analyze(broken, read, bits=32)
            elif target == 2:
                swizzle.analyze(store, read, broken, bits=32)
            elif target == 3:
                swizzle.solve(store, broken, bits=rng.choice([16, 32, 5]))
            else:
                lanes = rng.choice([31, 32, 33])
                swizzle.serve(rng.choice(["LDS.32", "LDS.128", "LDSM.x4", "STS.64", "LDS.7"]),
                              [rng.choice([-1, -2, 0, 1, 4, 16, 2 ** 20]) * rng.randrange(8) for _ in range(lanes)],
                              banks=rng.choice([32, 32, 16, 0, 33]))
        except ValueError as e:
            message = str(e)
            assert message and "\n" not in message, message
            messages.append(message)
    # Problem fields with garbage: each names its flag.
    for kwargs in ({"bits": "x"}, {"banks": 0}, {"warp_size": [1, 2]}, {"shape": "7x7"}, {"write_vec_bits": 8}):
        try:
            swizzle.analyze(preset="transpose16x32", **kwargs)
        except ValueError as e:
            messages.append(str(e))
    reached = {name: sum(bool(re.search(pattern, m)) for m in messages) for name, pattern in BRANCHES.items()}
    print(f"\n{calls} fuzzed calls, {len(messages)} ValueErrors; branches reached: {reached}")
    missing = [name for name, count in reached.items() if count == 0]
    assert not missing, f"never reached: {missing}; messages seen: {sorted(set(messages))[:40]}"
