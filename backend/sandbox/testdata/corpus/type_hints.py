from typing import List, Dict, Optional

def summarize(items: List[str], limit: Optional[int] = None) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for it in items[:limit]:
        counts[it] = counts.get(it, 0) + 1
    return counts

print(summarize(["a", "b", "a"]))
print(summarize(["a", "b", "a"], limit=2))
