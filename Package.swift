// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "VoiceNotes",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "AudioIO", targets: ["AudioIO"]),
    .library(name: "SpeechRecognition", targets: ["SpeechRecognition"]),
    .library(name: "VoiceNotes", targets: ["VoiceNotes"]),
    .executable(name: "voicenotes", targets: ["voicenotes"]),
  ],
  targets: [
    // C libraries: a module map and a small shim header each, nothing else.
    .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat"),
    .systemLibrary(name: "CWhisper", path: "Sources/CWhisper", pkgConfig: "whisper"),

    .target(name: "AudioIO", dependencies: ["CFFmpeg"]),
    .target(name: "SpeechRecognition", dependencies: ["AudioIO", "CWhisper"]),
    .target(name: "VoiceNotes", dependencies: ["AudioIO", "SpeechRecognition"]),
    .executableTarget(name: "voicenotes", dependencies: ["VoiceNotes", "SpeechRecognition", "AudioIO"]),

    // Tests: real engines, real models, real audio. TestSupport finds the fixtures the bootstrap installs.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "AudioIOTests", dependencies: ["AudioIO", "TestSupport"]),
    .testTarget(
      name: "SpeechRecognitionTests", dependencies: ["SpeechRecognition", "AudioIO", "VoiceNotes", "TestSupport"]),
    .testTarget(name: "VoiceNotesTests", dependencies: ["VoiceNotes", "SpeechRecognition", "TestSupport"]),
    .testTarget(name: "voicenotesTests", dependencies: ["VoiceNotes", "TestSupport"]),
  ]
)
