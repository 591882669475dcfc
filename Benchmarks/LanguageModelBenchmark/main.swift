// Our side of the language-model benchmark (Benchmarks/language/bench.py runs it beside
// llama.cpp's own tools; see Benchmarks/language/README.md). Each command prints one JSON line.
import Foundation

do {
  let arguments = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
  switch (arguments.command, arguments.child) {
  case ("speed", _) where arguments.printPrompt: try emit(try await runSpeedPrompt(arguments))
  case ("speed", _): try emit(try await runSpeed(arguments))
  case ("grammar", _) where arguments.printPrompt: try emit(runGrammarPrompt(arguments))
  case ("grammar", _): try emit(try await runGrammar(arguments))
  case ("prewarm", let mode?):
    guard ["plain", "prewarmed"].contains(mode) else { throw BenchmarkError("--child is plain or prewarmed") }
    try emit(try await runPrewarmChild(arguments, mode: mode))
  case ("prewarm", nil): try emit(try await runPrewarm(arguments))
  case ("schema", _): try emit(try await runSchema(arguments))
  default: throw BenchmarkError("unknown command \(arguments.command)\n\n\(Arguments.usage)")
  }
} catch {
  FileHandle.standardError.write(Data("LanguageModelBenchmark: \(error)\n".utf8))
  exit(2)
}
