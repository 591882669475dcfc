// The shape of Apple's documentation article "Recognizing speech in prerecorded audio": a
// recognizer, an URL request and the result handler (our own code in that shape). Only the
// import differs: Speech -> SpeechRecognition.

import Foundation
import SpeechRecognition

final class PrerecordedAudioRecognizer {
  private(set) var transcription: String?
  private(set) var segments: [SFTranscriptionSegment] = []
  private(set) var failure: Error?
  private(set) var partialCount = 0

  func recognizeFile(url: URL, done: @escaping () -> Void) {
    guard let myRecognizer = SFSpeechRecognizer() else {
      done()
      return
    }
    if !myRecognizer.isAvailable {
      done()
      return
    }
    let request = SFSpeechURLRecognitionRequest(url: url)
    request.addsPunctuation = true
    myRecognizer.recognitionTask(with: request) { result, error in
      guard let result else {
        self.failure = error
        done()
        return
      }
      if result.isFinal {
        self.transcription = result.bestTranscription.formattedString
        self.segments = result.bestTranscription.segments
        done()
      } else {
        self.partialCount += 1
      }
    }
  }
}
