#!/usr/bin/env python3
"""Fits each family's activation bytes per token and layer (the rows `activations.py --grid`
measured) as a sum of terms in its sizes, and prints the coefficients with the largest error.

    fit_activations.py shared/tests/fixtures/model_activations.jsonl
    fit_activations.py --lora shared/tests/fixtures/model_activations_lora.jsonl

The terms: hidden width h, dense MLP width I, query width H·d, key/value width kv·d, heads H,
heads × sequence H·s (eager attention's scores), and for mixtures of experts the routed
experts' width k·Ie, the routed copies k·h, the experts E and the shared expert's width Is.
With `--lora` (peft's adapters on every linear layer) one more term: peft adapts the fused
experts of Mixtral and Qwen3-MoE by merging a delta into each expert's weights on every
forward pass, and keeps that delta for the backward pass: bytes per layer and forward, not per
token (3·E·Ie·h 16-bit values), so per token it is E·Ie·h / seq.
`shared/src/architecture/activations.rs` holds the result; its tests check it on every row.
"""
import json
import sys
from collections import defaultdict

import numpy as np

TERMS = ["h", "i", "q", "kv", "heads", "heads_seq", "routed_i", "routed_h", "experts", "shared_i",
         "one", "experts_ih_per_seq"]
LORA = "--lora" in sys.argv


def features(r):
    h, heads = r["hidden"], r["heads"]
    d = r["head_dim"] or h // heads
    kv = r["kv_heads"] or heads
    k = r["experts_per_token"] or 0
    moe = bool(r["experts"])
    ie = r["expert_intermediate"] or (r["intermediate"] if r["family"] == "mixtral" else 0)
    dense_i = 0 if moe else (r["intermediate"] or 4 * h)
    return {
        "h": h, "i": dense_i, "q": heads * d, "kv": kv * d, "heads": heads,
        "heads_seq": heads * r["seq"], "routed_i": k * ie, "routed_h": k * h,
        "experts": r["experts"] or 0, "shared_i": r["shared_intermediate"] or 0, "one": 1,
        # Only where peft adapts the fused experts (Mixtral, Qwen3-MoE; not Qwen2-MoE).
        "experts_ih_per_seq": (r["experts"] or 0) * ie * h / r["seq"]
        if LORA and r["family"] in ("mixtral", "qwen3_moe") else 0,
    }


def main():
    groups = defaultdict(list)
    for line in open([a for a in sys.argv[1:] if a != "--lora"][0]):
        r = json.loads(line)
        groups[(r["family"], r["attention"])].append(r)
    out = {}
    rust = []
    for (family, attention), rows in groups.items():
        x = np.array([[features(r)[t] for t in TERMS] for r in rows], dtype=float)
        y = np.array([r["layer_bytes_per_token"] for r in rows])
        fit = np.array([r["shape"] == "fit" for r in rows])
        used = [j for j in range(len(TERMS)) if np.ptp(x[fit, j]) > 0 or TERMS[j] == "one"]
        if LORA and family in ("mixtral", "qwen3_moe"):
            # The per-forward delta cannot be told from per-token terms at one sequence: the
            # rows at another sequence (held out otherwise) are fitted too.
            fit = np.ones(len(rows), dtype=bool)
        coef, *_ = np.linalg.lstsq(x[fit][:, used], y[fit], rcond=None)
        full = dict.fromkeys(TERMS, 0.0)
        for j, c in zip(used, coef):
            full[TERMS[j]] = round(float(c), 3)
        pred = x @ np.array([full[t] for t in TERMS])
        err = float(np.max(np.abs(pred - y) / y))
        held = float(np.max(np.abs(pred - y)[~fit] / y[~fit])) if (~fit).any() else float("nan")
        out[f"{family}/{attention}"] = {"terms": full, "rows": len(rows), "max_error": err}
        print(f"{family:12} {attention:6} rows={len(rows):2} max_err={err:.5f} held_out_err={held:.5f} "
              + " ".join(f"{t}={v:g}" for t, v in full.items() if v))
        terms = ", ".join(f"{full[t]:.3f}" for t in TERMS)
        rust.append(f'    ("{family}", "{attention}", [{terms}]),')
    print("\n// terms: " + ", ".join(TERMS))
    print("\n".join(rust))
    return out


if __name__ == "__main__":
    main()
