module example.com/embed

go 1.25

require github.com/cbreach/cbreach v0.0.0

replace github.com/cbreach/cbreach => ../../../..
