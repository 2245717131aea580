module hdrarray

go 1.22
