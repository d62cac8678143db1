package db

import "testing"

func TestCommissionScheduleFor(t *testing.T) {
	s := CommissionSchedule{"ES": 2.14, "MES": 0.62, "AAPL": 0.005, "*": 1}
	tests := []struct {
		symbol string
		qty    float64
		want   float64
	}{
		{"ESZ5", 2, 4.28},   // by futures root: 2 x 2.14
		{"MESH6", 3, 1.86},  // 3 x 0.62
		{"aapl", 100, 0.5},  // by symbol, any case: 100 x 0.005
		{"NQZ5", 1, 1},      // "*" for the rest
		{"ES", 1, 2.14},     // a bare root is its own key
		{"MNQZ5", 0.5, 0.5}, // fractional quantity
	}
	for _, tt := range tests {
		if got := s.For(tt.symbol, tt.qty); got != tt.want {
			t.Errorf("For(%q, %v) = %v, want %v", tt.symbol, tt.qty, got, tt.want)
		}
	}
	if got := (CommissionSchedule{"ES": 2.14}).For("NQZ5", 1); got != 0 {
		t.Errorf("no rate and no *: got %v, want 0", got)
	}
	if got := CommissionSchedule(nil).For("ESZ5", 1); got != 0 {
		t.Errorf("no schedule: got %v, want 0", got)
	}
}
