module example.com/embed

go 1.24.0

require github.com/cbreach/cbreach v0.0.0

replace github.com/cbreach/cbreach => ../../../..
