scores = {"bob": 90, "amy": 95, "cat": 90, "dan": 80}
ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
for rank, (name, score) in enumerate(ranked, start=1):
    print(f"{rank}. {name:<4}{score:>4}")
