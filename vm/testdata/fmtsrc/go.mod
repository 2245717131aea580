module fmtsrc

go 1.26
