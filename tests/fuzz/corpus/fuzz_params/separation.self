separation.self
