for s in ["123", "abc", "a1", "", "   "]:
    print(repr(s), s.isdigit(), s.isalpha(), s.isalnum(), s.isspace())
