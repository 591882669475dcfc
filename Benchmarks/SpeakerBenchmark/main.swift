// The speaker benchmark (`make bench`): diarization error rate and seconds per minute of audio
// of SpeakerDiarizer on conversations joined from real recordings of different people, and its
// added cost over plain transcription (Whisper base) of the same audio; medians of --runs runs.
//
//   SpeakerBenchmark [--runs R]
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let runs =
  arguments.firstIndex(of: "--runs").flatMap { index in
    index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
  } ?? 3
do {
  try await SpeakerBenchmark(runs: max(runs, 1)).run()
} catch {
  FileHandle.standardError.write(
    Data("SpeakerBenchmark: \((error as? LocalizedError)?.errorDescription ?? "\(error)")\n".utf8))
  exit(1)
}
