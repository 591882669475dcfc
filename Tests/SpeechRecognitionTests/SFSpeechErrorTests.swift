import Foundation
import SpeechRecognition
import Testing

/// `SFSpeechError` as Apple's bridged error: its domain, codes and pattern matching.
@Suite("SFSpeechError")
struct SFSpeechErrorTests {
  @Test("it bridges to NSError in SFSpeechErrorDomain with the code's number and description")
  func bridging() {
    let error: any Error = SFSpeechError(.noSpeechDetected)
    let bridged = error as NSError
    #expect(bridged.domain == SFSpeechErrorDomain && bridged.domain == SFSpeechError.errorDomain)
    #expect(bridged.code == 1110, "the number Apple's recognizer reports for no speech")
    #expect(bridged.localizedDescription == "No speech detected in the audio.")
    #expect((SFSpeechError(.canceled) as NSError).code == 301)
    #expect((SFSpeechError(.timeout) as NSError).code == 12)
  }

  @Test("Apple's codes carry the header's raw values, and no two codes share one")
  func codes() {
    #expect(SFSpeechError.Code.internalServiceError.rawValue == 1)
    #expect(SFSpeechError.Code.audioReadFailed.rawValue == 2)
    #expect(SFSpeechError.Code.undefinedTemplateClassName.rawValue == 7)
    #expect(SFSpeechError.Code.malformedSupplementalModel.rawValue == 8)
    #expect(SFSpeechError.Code.timeout.rawValue == 12)
    #expect(SFSpeechError.Code.missingParameter.rawValue == 13)
    let values = SFSpeechError.Code.allCases.map(\.rawValue)
    #expect(Set(values).count == values.count)
    #expect(SFSpeechError.Code.allCases.allSatisfy { SFSpeechError($0).errorDescription?.isEmpty == false })
    #expect(SFSpeechError.timeout == .timeout && SFSpeechError.audioReadFailed == .audioReadFailed)
  }

  @Test("errors are caught as Apple's code writes it: by code, and by type with a code")
  func catching() throws {
    var caught: [String] = []
    do {
      throw SFSpeechError(.timeout)
    } catch SFSpeechError.timeout {
      caught.append("timeout")
    } catch {
      Issue.record("not caught by code: \(error)")
    }
    do {
      throw SFSpeechError(.noModel)
    } catch let error as SFSpeechError where error.code == .noModel {
      caught.append("noModel")
    }
    do {
      throw SFSpeechError(.audioReadFailed)
    } catch SFSpeechError.timeout {
      Issue.record("a different code must not match")
    } catch {
      caught.append("other")
    }
    #expect(caught == ["timeout", "noModel", "other"])
  }
}
