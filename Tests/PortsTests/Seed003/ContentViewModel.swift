// swift-format-ignore-file
// (The seed's code is kept exactly as its authors wrote it.)
// Seed 003: the view model, as the post writes it. Only the import changed: Speech ->
// SpeechRecognition (SwiftUI and Combine names come from SwiftUIStandIns.swift).

import Foundation
import SpeechRecognition

public class ContentViewModel: NSObject, SFSpeechRecognizerDelegate, ObservableObject{
    @Published var recordButtonLabel = ""
    @Published var recordButtonEnabled = false
    @Published var alertVisible = false
    @Published var alertText = ""
    @Published var backgroundColor: Color = .white
    @Published var lastText: String = ""
    
    
    let speechRecognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US"))!
    
    public func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool) {
            if available {
                self.recordButtonLabel = "Start recording"
                self.recordButtonEnabled = true
            } else {
                self.recordButtonLabel = "Recognition not available"
                self.recordButtonEnabled = false
            }
        }
    public func markButtonActive() {
        self.recordButtonLabel = "Start recording"
        self.recordButtonEnabled = true
    }
}
