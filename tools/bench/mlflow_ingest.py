#!/usr/bin/env python3
"""MLflow's tracking server as the baseline of `cargo xtask bench-jobs`.

    python mlflow_ingest.py TRACKING_URI POINTS BATCH THREADS

Logs POINTS metric points with `MlflowClient.log_batch` (at most 1000 metrics per call, MLflow's
own limit), split over THREADS runs logged in parallel (one thread each, as ds-studio's bench
uses one sender per job), and prints one JSON line: {"points", "seconds", "points_per_s"}.
"""
import json
import sys
import threading
import time

from mlflow.entities import Metric
from mlflow.tracking import MlflowClient


def main():
    uri, points, batch, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    batch = min(batch, 1000)
    client = MlflowClient(tracking_uri=uri)
    exp = client.create_experiment(f"bench-{time.time_ns()}")
    runs = [client.create_run(exp).info.run_id for _ in range(threads)]
    per = points // threads
    errors = []

    def send(run_id):
        try:
            ts = int(time.time() * 1000)
            done = 0
            while done < per:
                n = min(batch, per - done)
                ms = [Metric("Train/Samples/lr", 0.001, ts, (done + i + 1) * 8) for i in range(n)]
                client.log_batch(run_id, metrics=ms)
                done += n
        except Exception as e:  # reported, and the run counts as failed
            errors.append(repr(e))

    start = time.time()
    ts = [threading.Thread(target=send, args=(r,)) for r in runs]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    secs = time.time() - start
    if errors:
        print(json.dumps({"error": errors[0]}))
        sys.exit(1)
    total = per * threads
    print(json.dumps({"points": total, "seconds": secs, "points_per_s": total / secs}))


if __name__ == "__main__":
    main()
