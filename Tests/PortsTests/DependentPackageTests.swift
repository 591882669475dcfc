import Foundation
import TestSupport
import Testing

/// Another Swift package can depend on ours and build with plain SwiftPM: no flags, no variables.
@Suite("A package that depends on this one", .serialized, .timeLimit(.minutes(15)))
struct DependentPackageTests {
  @Test("builds with plain swift build and runs: transcribes a clip and counts its tokens")
  func pathDependency() throws {
    // Kept in .build so that later runs build incrementally; rewritten each time.
    let folder = Fixtures.root.appendingPathComponent(".build/dependent-package", isDirectory: true)
    let sources = folder.appendingPathComponent("Sources/Dependent", isDirectory: true)
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    let identity = Fixtures.root.lastPathComponent
    try """
    // swift-tools-version:6.2
    import PackageDescription

    let package = Package(
      name: "Dependent",
      dependencies: [.package(path: "\(Fixtures.root.path)")],
      targets: [
        .executableTarget(
          name: "Dependent",
          dependencies: [
            .product(name: "LanguageModels", package: "\(identity)"),
            .product(name: "SpeechRecognition", package: "\(identity)"),
          ])
      ]
    )
    """.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try """
    import Foundation
    import LanguageModels
    import SpeechRecognition

    let file = try AVAudioFile(forReading: URL(fileURLWithPath: CommandLine.arguments[1]))
    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: file, finishAfterFile: true)
    var text = ""
    for try await result in transcriber.results where result.isFinal { text += String(result.text.characters) }
    print(text.trimmingCharacters(in: .whitespaces))
    print("tokens:", try await SystemLanguageModel.default.tokenCount(for: text))
    """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)

    let environment = ["VOICENOTES_MODELS": Fixtures.models.path]
    // Whatever the caller's shell has, the child has none of the variables that could point the
    // compiler, the linker or the loader at the engines: the package must find them by itself.
    let searchPaths: Set = [
      "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "LIBRARY_PATH", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH",
    ]
    let childEnvironment = try Program.run(["env"], environment: environment, removing: searchPaths).standardOutput
    let names = childEnvironment.split(separator: "\n").compactMap { $0.split(separator: "=").first.map(String.init) }
    #expect(searchPaths.isDisjoint(with: names), "the child still has \(searchPaths.intersection(names).sorted())")
    let build = try Program.run(
      ["swift", "build", "--package-path", folder.path], environment: environment, removing: searchPaths)
    #expect(
      build.status == 0,
      "swift build failed:\n\(build.standardOutput.suffix(3_000))\(build.standardError.suffix(2_000))")
    guard build.status == 0 else { return }
    let run = try Program.run(
      ["swift", "run", "--package-path", folder.path, "--skip-build", "Dependent", Fixtures.jfk.path],
      environment: environment, removing: searchPaths)
    #expect(run.status == 0, "swift run failed: \(run.standardError.suffix(2_000))")
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == Fixtures.jfkText, "\(run.standardOutput)")
    let tokens = lines.last.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) }
    #expect((20...40).contains(tokens ?? 0), "\(run.standardOutput)")
  }
}
