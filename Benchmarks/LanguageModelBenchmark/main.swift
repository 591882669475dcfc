// Our side of the language-model benchmark; see Benchmarks/language/README.md.
print("usage: LanguageModelBenchmark speed|grammar|prewarm|schema --model NAME")
