nums = [4, 8, 15, 16, 23, 42]
print(f"sum={sum(nums)} max={max(nums)} avg={sum(nums)/len(nums):.2f}")
print(f"{'even' if len(nums) % 2 == 0 else 'odd'} count")
