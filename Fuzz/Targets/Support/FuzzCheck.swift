/// Stops the process (a crash libFuzzer reports, with the input saved) when a property of the code
/// under test does not hold.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError("fuzz check failed: \(message())") }
}
