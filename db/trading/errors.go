package trading

// InvalidError is a validation failure of one field, found by the trading
// rules (a fill that reverses the position, a root without a point value,
// a stop on the wrong side of the entry). Field is the request field at
// fault, as the client wrote it ("executions", "stop_loss_levels[0].price").
type InvalidError struct{ Field, Message string }

func (e *InvalidError) Error() string { return e.Field + ": " + e.Message }
